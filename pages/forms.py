"""The contact form. Its honeypot field is hidden from people and left empty by them; bots that fill
every input fill it too."""

from django import forms
from django.utils.translation import gettext_lazy as _

HONEYPOT_FIELD = "homepage"


class ContactForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    phone = forms.CharField(
        label=_("Phone (optional)"), max_length=40, required=False, widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"})
    )
    check_in = forms.DateField(label=_("Arrival (optional)"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    check_out = forms.DateField(label=_("Departure (optional)"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    guests = forms.IntegerField(label=_("Guests (optional)"), required=False, min_value=1)
    message = forms.CharField(label=_("Message"), min_length=10, max_length=5000, widget=forms.Textarea(attrs={"rows": 6}))
    homepage = forms.CharField(label=_("Leave this field empty"), required=False, widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}))

    def __init__(self, *args, max_guests: int = 7, **kwargs):
        super().__init__(*args, **kwargs)
        # The property's capacity is the owner's setting, so the bound is set per form.
        self.fields["guests"] = forms.IntegerField(
            label=_("Guests (optional)"),
            required=False,
            min_value=1,
            max_value=max_guests,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )

    def clean(self):
        data = super().clean()
        check_in, check_out = data.get("check_in"), data.get("check_out")
        if check_in and check_out and check_out <= check_in:
            self.add_error("check_out", _("The departure must be after the arrival."))
        return data

    @property
    def is_bot(self) -> bool:
        return bool(self.data.get(HONEYPOT_FIELD, "").strip())
