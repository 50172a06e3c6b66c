from django.http import HttpResponseNotFound


def not_found(request, exception=None):
    return HttpResponseNotFound("<h1>Not found</h1>")
