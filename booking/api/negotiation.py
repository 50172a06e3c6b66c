"""The JSON interface answers JSON whatever the client's Accept header says: a browser or an agent
sending `Accept: text/html` still gets the document rather than a 406."""

from rest_framework.negotiation import DefaultContentNegotiation


class AlwaysFirstRenderer(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type
