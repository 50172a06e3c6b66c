"""A party as an HTML form sends it (fields `g{index}-{name}`, `party`), read into the check-in's
payload: one reading for the guest's form (pages/check_in.py) and the staff's (booking/italy/
admin_arrivals.py), so both meet the one validation of booking/italy/checkin.py and its 422 names."""

from booking.italy.countries import country_code_named

FORM_FIELDS = ("first_name", "last_name", "sex", "date_of_birth", "citizenship", "country_of_birth", "comune_of_birth", "province_of_birth")
COUNTRY_FIELDS = ("citizenship", "country_of_birth")


def stored_number(existing) -> str:
    """The lead guest's stored document number ("" when none)."""
    lead = existing.guests.all()[0] if existing and existing.guests.exists() else None
    return lead.document_number if lead else ""


def country_code(value: str) -> str:
    """A country as submitted: its code (the select's and the suggestions' value), or a name typed
    in the page's language, given as its code; anything else as typed (refused by the check)."""
    return country_code_named(value) or value if len(value) > 2 else value


def payload_from_form(post, guests: int, existing, *, kept_number: str = "") -> dict:
    """`{"party", "guests": [...]}` from the form; an empty document number keeps the one kept
    after an error, else the stored one."""
    party = []
    for index in range(guests):
        guest = {name: post.get(f"g{index}-{name}", "").strip() for name in FORM_FIELDS}
        guest = {k: v for k, v in guest.items() if v}
        for name in COUNTRY_FIELDS:
            if name in guest:
                guest[name] = country_code(guest[name])
        comune = guest.get("comune_of_birth", "")
        if "(" in comune and not guest.get("province_of_birth"):  # "Firenze (FI)" from the typeahead
            name, _sep, province = comune.partition("(")
            guest["comune_of_birth"], guest["province_of_birth"] = name.strip(), province.strip(" )")
        if index == 0:
            number = post.get("g0-document_number", "").strip()
            kept = kept_number or stored_number(existing)
            issued_in = country_code(post.get("g0-document_issued_in", "").strip())
            guest["document"] = {"type": post.get("g0-document_type", ""), "number": number or kept, "issued_in": issued_in}
        party.append(guest)
    return {"party": post.get("party") or "family", "guests": party}
