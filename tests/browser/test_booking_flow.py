"""A guest books the penthouse in a real browser: dates in the calendar, the live price, the
sandbox payment page, the thank-you page showing the confirmed stay, then the manage link, where the
guest cancels and sees the refund. On a desktop and on a phone.

Screenshots of every step go to test-artifacts/browser/ (kept by CI as artefacts).
"""

import re
from datetime import date

import pytest
import requests

from tests.browser.conftest import DESKTOP, PHONE, open_browser, requires_chromium, screenshot
from tests.pages.conftest import SITE_PAGES

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def euros(amount: float) -> str:
    """How the page writes an amount (Intl.NumberFormat en-IE): €1,234.50."""
    return f"€{amount:,.2f}"


def quote_from_api(base_url: str, check_in: str, check_out: str, guests: int) -> dict:
    answer = requests.post(f"{base_url}/api/v1/quote", json={"check_in": check_in, "check_out": check_out, "guests": guests}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def choose_first_free_stay(page, expect) -> tuple[str, str]:
    """Move one month ahead (no edge cases around today), pick the first day open for arrival,
    then the first check-out the calendar offers. Returns the ISO dates."""
    page.locator("[data-next]").click()
    first_arrival = page.locator(".day[aria-disabled='false']").first
    check_in = first_arrival.get_attribute("data-date")
    first_arrival.click()
    expect(page.locator(f".day[data-date='{check_in}']")).to_have_attribute("aria-pressed", "true")
    # Now only valid check-outs (and the check-in, to clear it) can be chosen: the check-in is the
    # first enabled day, the shortest allowed stay the second.
    first_departure = page.locator(".day[aria-disabled='false']").nth(1)
    check_out = first_departure.get_attribute("data-date")
    first_departure.click()
    expect(page.locator(f".day[data-date='{check_out}']")).to_have_attribute("aria-pressed", "true")
    return check_in, check_out


def book_and_pay(site_url: str, device: dict, name: str, guests: int) -> None:
    from playwright.sync_api import expect

    with open_browser(**device) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        screenshot(page, f"{name}-1-book")

        page.locator("#guests").select_option(str(guests))
        check_in, check_out = choose_first_free_stay(page, expect)
        nights = (date.fromisoformat(check_out) - date.fromisoformat(check_in)).days
        calendar = requests.get(f"{site_url}/api/v1/calendar", params={"start": check_in, "months": 1}, timeout=10).json()
        arrival_day = next(day for day in calendar["days"] if day["date"] == check_in)
        assert nights == arrival_day["min_nights"], "the first check-out offered is the shortest stay allowed"

        # The live quote, line by line, equals what the API quotes for the same stay.
        quote = quote_from_api(site_url, check_in, check_out, guests)
        lines = page.locator(".quote-lines")
        expect(lines.locator("tr.total td")).to_have_text(euros(quote["total"]))
        expect(lines).to_contain_text("Accommodation")
        expect(lines).to_contain_text(euros(quote["accommodation"]))
        expect(lines).to_contain_text(quote["cleaning_fee_label"])
        expect(lines).to_contain_text(euros(quote["cleaning_fee"]))
        expect(lines).to_contain_text("City tax")
        expect(lines).to_contain_text(euros(quote["city_tax"]))
        expect(page.locator(".nights-detail li")).to_have_count(nights)
        book_button = page.locator("#book-button")
        expect(book_button).to_be_enabled()
        screenshot(page, f"{name}-2-quote")

        # Book: the browser goes to the sandbox checkout, which asks for the guest's details.
        book_button.click()
        expect(page.locator("#pay-button")).to_be_visible()
        page.fill("input[name='email']", f"{name}.guest@example.com")
        page.fill("input[name='name']", "Ada Lovelace")
        page.fill("input[name='phone']", "+44 20 7946 0958")
        screenshot(page, f"{name}-3-checkout")
        page.locator("#pay-button").click()

        # Back on the site: the thank-you page shows the confirmed stay.
        page.wait_for_url(re.compile(r"/thank-you\?reservation_id=res_"))
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "confirmed")
        expect(page.locator("h1")).to_contain_text("confirmed")
        details = page.locator("#booking-details").locator("..")
        expect(details).to_contain_text(date.fromisoformat(check_in).strftime("%-d %B %Y"))
        expect(details).to_contain_text(date.fromisoformat(check_out).strftime("%-d %B %Y"))
        expect(details).to_contain_text(euros(quote["total"]))
        screenshot(page, f"{name}-4-thank-you")
        reservation_id = page.url.split("reservation_id=")[1].split("&")[0]

        # The payer is shown the manage link; from there the guest cancels, by the policy.
        page.locator("[data-manage-link]").click()
        page.wait_for_url(re.compile(r"/manage/[A-Za-z0-9_-]{40,}$"))
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "confirmed")
        expect(page.locator("[data-paid]")).to_have_text(euros(quote["payment_schedule"][0]["amount"]))  # the deposit, or the total
        refund_text = page.locator("[data-refund-if-cancelled] strong").inner_text()
        screenshot(page, f"{name}-5-manage")
        page.get_by_role("link", name="Cancel this stay…").click()
        page.get_by_label("Yes, cancel this stay").check()
        page.get_by_role("button", name=re.compile("Cancel the stay")).click()
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "cancelled")
        expect(page.locator("[data-refund]")).to_contain_text(refund_text)
        screenshot(page, f"{name}-6-cancelled")
        assert errors == [], f"JavaScript errors: {errors}"

    reservation = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()
    assert reservation["status"] == "cancelled" and reservation["refunded_amount"] > 0
    assert (reservation["check_in"], reservation["check_out"], reservation["guests"]) == (check_in, check_out, guests)
    assert reservation["guest"]["email"] == f"{name[0]}***@example.com"
    assert reservation["price_breakdown"]["total"] == quote["total"]


def test_a_guest_books_and_pays_on_a_desktop(site_url):
    book_and_pay(site_url, DESKTOP, "desktop", guests=2)


def test_a_guest_books_and_pays_on_a_phone(site_url):
    # Five guests: above the base occupancy, so the nightly lines carry the extra-guest fee.
    book_and_pay(site_url, PHONE, "phone", guests=5)


def test_the_almost_there_page_updates_by_itself_once_the_payment_lands(site_url):
    """The guest is back before the payment event: the page says so, then updates on its own (its
    script is a static file, which the site's Content-Security-Policy allows; an inline one was blocked)."""
    from playwright.sync_api import expect

    calendar = requests.get(f"{site_url}/api/v1/calendar", params={"months": 3}, timeout=10).json()
    days = [day for day in calendar["days"] if day["check_in_allowed"] and day["date"] > str(date.today())]
    check_in = date.fromisoformat(days[-1]["date"])
    nights = days[-1]["min_nights"]
    link = requests.post(
        f"{site_url}/api/v1/payments/checkout-link",
        json={"check_in": str(check_in), "check_out": str(check_in.fromordinal(check_in.toordinal() + nights)), "guests": 2},
        timeout=10,
    ).json()
    assert link.get("reservation_id"), link
    with open_browser(**DESKTOP) as (page, errors):
        page.goto(f"{site_url}/thank-you?reservation_id={link['reservation_id']}")
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "held")
        expect(page.locator("h1")).to_contain_text("Almost there")
        # The payment completes elsewhere (the sandbox page, as the provider's page would).
        payer = requests.Session()
        form = payer.get(link["checkout_url"], timeout=10).text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
        paid = payer.post(
            link["checkout_url"],
            data={"csrfmiddlewaretoken": token, "email": "late@example.com", "name": "Late Payer", "phone": "+39 1", "action": "pay"},
            headers={"Referer": link["checkout_url"]},
            allow_redirects=False,
            timeout=10,
        )
        assert paid.status_code == 303
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "confirmed", timeout=15_000)
        assert errors == [], f"JavaScript errors (a CSP violation among them?): {errors}"


def test_dates_taken_meanwhile_are_refused_clearly_and_greyed_out(site_url):
    from playwright.sync_api import expect

    with open_browser(**DESKTOP) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        check_in, check_out = choose_first_free_stay(page, expect)
        expect(page.locator("#book-button")).to_be_enabled()

        # Another guest (here: an agent through the API) holds the same nights first.
        taken = requests.post(f"{site_url}/api/v1/reservations", json={"check_in": check_in, "check_out": check_out, "guests": 2}, timeout=10)
        assert taken.status_code == 201, taken.text

        page.locator("#book-button").click()
        expect(page.locator("[data-error]")).to_contain_text("another guest booked")
        # The calendar was reloaded: the taken arrival day can no longer be chosen.
        arrival = page.locator(f".day[data-date='{check_in}']")
        expect(arrival).to_have_attribute("aria-disabled", "true")
        expect(arrival).to_have_class(re.compile(r"\bis-taken\b"))
        expect(arrival).to_have_attribute("aria-label", re.compile("unavailable: already booked"))
        expect(page.locator("#book-button")).to_be_disabled()
        screenshot(page, "desktop-5-dates-taken")
        assert errors == []


def test_dates_can_be_chosen_with_the_keyboard_alone(site_url):
    from playwright.sync_api import expect

    with open_browser(**DESKTOP) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        # The calendar is one tab stop: Tab from the month buttons lands on its roving day.
        page.locator("[data-next]").focus()
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.date")
        assert focused, "Tab reaches a day of the calendar"
        assert page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "false", "the first focus is a day open for arrival"

        page.keyboard.press("ArrowRight")
        after_right = page.evaluate("document.activeElement.dataset.date")
        assert date.fromisoformat(after_right) - date.fromisoformat(focused) == (date(2000, 1, 2) - date(2000, 1, 1))
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        expect(page.locator(f".day[data-date='{focused}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-status]")).to_contain_text("Now choose your check-out")

        # Down a week: a 7-night stay, allowed by every demo season's minimum.
        page.keyboard.press("ArrowDown")
        check_out = page.evaluate("document.activeElement.dataset.date")
        page.keyboard.press("Enter")
        expect(page.locator(f".day[data-date='{check_out}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".quote-lines tr.total")).to_be_visible()
        expect(page.locator(".quote-lines")).to_contain_text("Weekly discount")

        # Page Down shows the next month and keeps the focus on a day in it.
        page.keyboard.press("PageDown")
        moved = page.evaluate("document.activeElement.dataset.date")
        assert moved and moved[:7] > check_out[:7]
        assert errors == []


def test_every_page_fits_a_phone_screen_and_loads_its_styles(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        for path in SITE_PAGES:
            answer = page.goto(site_url + path)
            assert answer.status == 200, path
            expect(page.locator("h1")).to_be_visible()
            # The stylesheet loaded (collected, hashed, served by whitenoise): the header is sticky.
            assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).position") == "sticky", path
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} is {overflow}px wider than the phone screen"
        page.goto(site_url + "/")
        screenshot(page, "phone-0-home")
        assert errors == []


def test_dates_chosen_on_the_availability_page_arrive_chosen_on_the_booking_page(site_url):
    from playwright.sync_api import expect

    with open_browser(**DESKTOP) as (page, errors):
        page.goto(site_url + "/availability")
        expect(page.locator(".day").first).to_be_visible()
        continue_link = page.locator("[data-continue]")
        expect(continue_link).to_have_attribute("aria-disabled", "true")
        page.locator("#guests").select_option("3")
        check_in, check_out = choose_first_free_stay(page, expect)
        expect(page.locator(".quote-lines tr.total")).to_be_visible()
        expect(continue_link).to_have_attribute("aria-disabled", "false")
        continue_link.click()

        page.wait_for_url(re.compile(r"/book\?"))
        expect(page.locator(f".day[data-date='{check_in}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(f".day[data-date='{check_out}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#guests")).to_have_value("3")
        quote = quote_from_api(site_url, check_in, check_out, 3)
        expect(page.locator(".quote-lines tr.total td")).to_have_text(euros(quote["total"]))
        expect(page.locator("#book-button")).to_be_enabled()
        assert errors == []
