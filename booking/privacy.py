"""A guest's contact details masked, as a reservation's status shows them and as a stored
idempotent answer keeps them (booking/reservations/services/idempotency.py)."""


def mask_email(email: str) -> str | None:
    if not email:
        return None
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


def mask_phone(phone: str) -> str | None:
    if not phone:
        return None
    digits = [c for c in phone if c.isdigit()]
    if len(digits) < 7:  # too short to show its end without showing most of it
        return "***"
    return "***" + "".join(digits[-4:])
