"""Reviews from guests who stayed: asked for by email the day after check-out, written on the
guest's own booking link (the manage token is the credential, so every review is a verified stay),
shown on the site only once the owner approves it in the back office.

The owner's own typed-in reviews (copied from the platforms) stay possible; the site marks which
is which.
"""

from collections.abc import Iterable
from datetime import date, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from booking.errors import BookingError, InvalidInput, Problem
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.reservations.models import Reservation, Review
from booking.text import text_problem

MAX_TEXT = 2000
# How long after check-out a guest is still asked (a job down for a day still catches up), and may write.
ASK_WITHIN_DAYS = 7
WRITE_WITHIN_DAYS = 90


class ReviewNotOpen(BookingError):
    status = 409
    code = "review_not_open"
    default_detail = "A review can be written after the stay, once."


def review_window_open(reservation: Reservation, today: date | None = None) -> bool:
    """Whether the guest may write their review now: a confirmed stay whose check-out day has come,
    within WRITE_WITHIN_DAYS, with no review yet."""
    today = today or timezone.localdate()
    return (
        reservation.status == Reservation.Status.CONFIRMED
        and reservation.check_out <= today <= reservation.check_out + timedelta(days=WRITE_WITHIN_DAYS)
        and not Review.objects.filter(reservation=reservation).exists()
    )


def queue_review_requests(*, today: date | None = None) -> int:
    """Email each confirmed stay that checked out yesterday (or in the last few days, if the job was
    down) a link to the review form, once. Run by beat; two overlapping runs still send once."""
    today = today or timezone.localdate()
    due = Reservation.objects.filter(
        status=Reservation.Status.CONFIRMED,
        review_requested_at__isnull=True,
        check_out__lt=today,
        check_out__gte=today - timedelta(days=ASK_WITHIN_DAYS),
        review__isnull=True,
        # A platform's guest reviews on the platform (and has no manage link for our form).
        channel_booking_id__isnull=True,
    ).select_related("property")
    queued = 0
    for reservation in due:
        with transaction.atomic():
            if Reservation.objects.filter(pk=reservation.pk, review_requested_at__isnull=True).update(review_requested_at=timezone.now()):
                queue_emails(reservation, OutboundEmail.Kind.REVIEW_REQUEST, owner_copy=False)
                queued += 1
    return queued


def author_name(reservation: Reservation) -> str:
    """ "Anna R.": the first name and the initial of the last, as the platforms show guests."""
    first = (reservation.guest_first_name or "").strip()
    initial = (reservation.guest_last_name or "").strip()[:1]
    return f"{first} {initial}.".strip() if first and initial else first or _("A guest")


def submit_review(*, reservation: Reservation, rating: object, text: object, language: str) -> Review:
    """Store the guest's review, unpublished until the owner approves it. Bad input: InvalidInput
    naming the fields (rating, text; the form says it in the guest's words); a second review or
    one outside the window: ReviewNotOpen."""
    problems = []
    try:
        stars = int(str(rating))
    except ValueError:
        stars = 0
    if not 1 <= stars <= 5:
        problems.append(Problem(("rating",), "Choose from 1 to 5 stars.", "rating"))
    words = str(text or "").strip()
    if not words:
        problems.append(Problem(("text",), "Write a few words about your stay.", "missing"))
    elif len(words) > MAX_TEXT:
        problems.append(Problem(("text",), f"At most {MAX_TEXT} characters, please.", "string_too_long"))
    elif problem := text_problem(words):  # a NUL cannot be stored (PostgreSQL): said, never a 500
        problems.append(Problem(("text",), problem, "value_error"))
    if problems:
        raise InvalidInput(problems)
    if not review_window_open(reservation):
        raise ReviewNotOpen()
    try:
        with transaction.atomic():
            return Review.objects.create(
                property=reservation.property,
                reservation=reservation,
                author=author_name(reservation),
                rating=stars,
                date=timezone.localdate(),
                text=words,
                source="Direct",
                published=False,
                language=language,
            )
    except IntegrityError:  # the same guest submitting twice at once: the first one stands
        raise ReviewNotOpen() from None


def set_published(reviews: Iterable[Review], *, published: bool) -> int:
    """The owner approves (or hides) reviews. Saved one by one so the property's remembered
    answers (its rules version) learn of the change; returns how many changed."""
    changed = 0
    for review in reviews:
        if review.published != published:
            review.published = published
            review.save(update_fields=["published"])
            changed += 1
    return changed
