"""The Italian settings' form in the back office: the platforms that collect the city tax, ticked
one by one (Airbnb, Booking.com, …), stored as the list of their sources."""

from django import forms
from django.utils.translation import gettext_lazy

from booking.italy.collectors import PLATFORMS, collector_label


class ItalySettingsForm(forms.ModelForm):
    # No Meta: ItalySettingsAdmin (modelform_factory) gives the model and every field of its page.
    city_tax_collecting_channels = forms.MultipleChoiceField(
        label=gettext_lazy("Platforms that collect the city tax"),
        choices=lambda: [(source.value, collector_label(source.value)) for source in PLATFORMS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Their guests pay the city tax to the platform: those stays are left out of what the host owes. Applies to bookings that arrive from now on."
        ),
    )
