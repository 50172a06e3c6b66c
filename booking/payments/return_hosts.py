"""Where a payer goes after the payment page: the property's own domain first (docs/contract.md,
"Payments"; DESIGN's TRUSTED_RETURN_HOSTS rule).

An agent may ask for any https success_url or cancel_url. A URL on the site's own host, or on a
host listed in TRUSTED_RETURN_HOSTS, is followed as given. Any other is never followed: the payer
lands on our thank-you (or booking) page, which offers it as a link spelling out its domain
("Continue to evil.example"), so a compromised agent cannot silently send a guest who just paid to
a look-alike page. Hosts match exactly (no suffix or prefix matching: "site.com.evil" and
"evil-site.com" are not "site.com").

The foreign URL travels to our page signed (django.core.signing), so only an address an agent
really gave for this reservation is ever shown there, never one typed into the query string.
"""

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing

SALT = "booking.payments.return_hosts.onward"
CONTINUE_PARAMETER = "continue"


def trusted_hosts() -> set[str]:
    own = urlsplit(settings.BASE_URL).hostname or ""
    return {own.lower(), *(host.strip().lower().rstrip(".") for host in settings.TRUSTED_RETURN_HOSTS if host.strip())}


def is_trusted(url: str) -> bool:
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return host.lower().rstrip(".") in trusted_hosts()


def sign(url: str, reservation_id: str) -> str:
    return signing.dumps([url, reservation_id], salt=SALT, compress=True)


@dataclass(frozen=True)
class OnwardLink:
    url: str
    domain: str


def onward_link(token: str | None, reservation_id: str | None) -> OnwardLink | None:
    """The link our page offers for a signed token made for this reservation, or None."""
    if not token or not reservation_id or len(token) > 4000:
        return None
    try:
        url, signed_for = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if signed_for != reservation_id or not isinstance(url, str):
        return None
    return OnwardLink(url=url, domain=urlsplit(url).hostname or "")
