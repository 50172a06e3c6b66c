"""Booking on a phone (390×844) and a desktop (1366×900): nightly prices on the calendar, a refusal
next to the tapped day, the sticky total bar, the way back from a cancelled payment, children's ages
and the display currency (issue 15 item 3, issue 16 item 1).

Screenshots of the phone flow go to test-artifacts/browser/phone-booking-*.png.
"""

import re
from datetime import date, timedelta

import pytest
import requests

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import choose_first_free_stay, euros

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]

WIDE = {"viewport": {"width": 1366, "height": 900}}
DEVICES = {"phone": PHONE, "desktop": WIDE}


def quote_from_api(base_url: str, **stay) -> dict:
    answer = requests.post(f"{base_url}/api/v1/quote", json=stay, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def open_book(page, expect, url: str) -> None:
    page.goto(url)
    expect(page.locator(".day").first).to_be_visible()


def in_viewport(page, box) -> bool:
    viewport = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


@pytest.mark.parametrize("device", DEVICES)
def test_nightly_prices_show_on_the_calendar_and_the_rates_table_fits(site_url, device):
    from playwright.sync_api import expect

    with open_browser(**DEVICES[device]) as (page, errors):
        open_book(page, expect, site_url + "/book")
        free = page.locator(".day[aria-disabled='false']").first
        rate = free.locator(".rate")
        expect(rate).to_be_visible()
        expect(rate).to_have_text(re.compile(r"^€\d"))
        day_box, rate_box = free.bounding_box(), rate.bounding_box()
        assert rate_box["width"] <= day_box["width"] + 0.5, "the price fits its day"
        if device == "phone":
            screenshot(page, "phone-booking-1-calendar")

        # The rates table of the availability page: inside the screen, all of it, or scrolling.
        page.goto(site_url + "/availability")
        region = page.locator(".table-scroll")
        region.scroll_into_view_if_needed()
        box = region.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 0.5
        fits = page.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1", region.element_handle())
        scrolls = page.evaluate("(el) => getComputedStyle(el).overflowX === 'auto' && el.tabIndex === 0", region.element_handle())
        assert fits or scrolls
        if device == "phone" and not fits:
            # Wider than the phone: it says so, and the season names stay while the figures scroll.
            expect(page.locator(".scroll-hint")).to_be_visible()
            region.evaluate("(el) => el.scrollTo({left: el.scrollWidth})")
            season = region.locator("tbody th").first
            assert season.bounding_box()["x"] >= box["x"] - 0.5, "the season's name stays in view"
            screenshot(page, "phone-booking-0-rates")
        assert errors == []


@pytest.mark.parametrize("device", DEVICES)
def test_a_tapped_booked_day_is_refused_next_to_it(site_url, device):
    from playwright.sync_api import expect

    # Someone else holds three nights, a month and a half ahead.
    calendar = requests.get(f"{site_url}/api/v1/calendar", params={"start": str(date.today() + timedelta(days=45)), "months": 1}, timeout=10).json()
    arrival = next(day for day in calendar["days"] if day["check_in_allowed"] and day["min_nights"] <= 3 and date.fromisoformat(day["date"]).weekday() < 3)
    check_in = date.fromisoformat(arrival["date"])
    taken = requests.post(
        f"{site_url}/api/v1/reservations", json={"check_in": str(check_in), "check_out": str(check_in + timedelta(days=3)), "guests": 2}, timeout=10
    )
    assert taken.status_code == 201, taken.text
    booked = str(check_in + timedelta(days=1))

    with open_browser(**DEVICES[device]) as (page, errors):
        open_book(page, expect, f"{site_url}/book")
        for _ in range(4):
            if page.locator(f".day[data-date='{booked}']").count():
                break
            page.locator("[data-next]").click()
        day = page.locator(f".day[data-date='{booked}']")
        day.scroll_into_view_if_needed()
        day.click(force=True)  # aria-disabled, yet focusable and tappable, so its reason can be read
        tip = page.locator("[data-tip]")
        # An unpaid hold: the refusal says when it lapses (issue 34 item 2), not "already booked".
        expect(tip).to_contain_text(re.compile(r"on hold for another guest until \d\d:\d\d(?: on \d{1,2} \w{3}(?: \d{4})?)?\."))  # with its date after midnight
        expect(tip).to_have_attribute("role", "status")
        tip_box, day_box = tip.bounding_box(), day.bounding_box()
        assert in_viewport(page, tip_box), "the refusal is on the screen"
        gap = max(tip_box["y"] - (day_box["y"] + day_box["height"]), day_box["y"] - (tip_box["y"] + tip_box["height"]))
        assert gap <= 24, f"the refusal is next to the day ({gap}px away)"
        if device == "phone":
            screenshot(page, "phone-booking-2-refusal")
        # Choosing a day that can be chosen puts it away (one below the tip, which covers the row above the tapped day).
        page.locator(".day[aria-disabled='false']").last.click()
        expect(tip).to_have_text("")
        assert errors == []


def test_on_a_phone_a_bar_shows_the_total_and_books(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        open_book(page, expect, site_url + "/book")
        bar = page.locator("[data-book-bar]")
        expect(bar).to_be_hidden()
        check_in, check_out = choose_first_free_stay(page, expect)
        quote = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=2)
        expect(page.locator("#book-button")).to_be_enabled()
        # Back up at the calendar, the pay button is out of sight: the bar stands in for it.
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        expect(bar).to_be_visible()
        expect(bar).to_contain_text(f"{euros(quote['total'])} total")
        bar_box = bar.bounding_box()
        assert in_viewport(page, bar_box) and bar_box["y"] + bar_box["height"] >= page.viewport_size["height"] - 1, "at the bottom of the screen"
        padding = page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")
        assert padding >= bar_box["height"], "the page has room under its end, so the bar covers nothing"
        page.screenshot(path=str(screenshot(page, "phone-booking-3-bar").with_name("phone-booking-3-bar-viewport.png")))
        # With the pay button in sight the bar steps aside.
        page.locator("#book-button").scroll_into_view_if_needed()
        expect(bar).to_be_hidden()
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        page.locator("[data-book-bar-button]").click()
        expect(page.locator("#pay-button")).to_be_visible()
        assert errors == []


def test_on_a_desktop_there_is_no_bar(site_url):
    from playwright.sync_api import expect

    with open_browser(**WIDE) as (page, errors):
        open_book(page, expect, site_url + "/book")
        choose_first_free_stay(page, expect)
        expect(page.locator("#book-button")).to_be_enabled()
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        expect(page.locator("[data-book-bar]")).to_be_hidden()
        assert page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)") == 0
        assert errors == []


def choose_party(page, expect, *, guests: int, child_ages: list[int]) -> None:
    page.locator("#guests").select_option(str(guests))
    page.locator("#children").select_option(str(len(child_ages)))
    for index, age in enumerate(child_ages, start=1):
        page.locator(f"#child-age-{index}").select_option(str(age))


def test_a_cancelled_payment_brings_back_the_dates_and_the_party(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        open_book(page, expect, site_url + "/book")
        choose_party(page, expect, guests=3, child_ages=[5])
        check_in, check_out = choose_first_free_stay(page, expect)
        book = page.locator("#book-button")
        expect(book).to_be_enabled()
        book.click()
        expect(page.locator("#cancel-button")).to_be_visible()
        page.locator("#cancel-button").click()

        page.wait_for_url(re.compile(r"/book\?.*reservation_id=res_"))
        expect(page.locator("[data-checkout-cancelled]")).to_contain_text("payment was cancelled and nothing was charged")
        expect(page.locator(f".day[data-date='{check_in}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(f".day[data-date='{check_out}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#guests")).to_have_value("3")
        expect(page.locator("#children")).to_have_value("1")
        expect(page.locator("#child-age-1")).to_have_value("5")
        quote = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=3, children_ages=[5])
        expect(page.locator(".quote-lines tr.total td")).to_have_text(euros(quote["total"]))
        expect(page.locator("#book-button")).to_be_enabled()
        screenshot(page, "phone-booking-4-cancelled")
        assert errors == []


@pytest.mark.parametrize("device", DEVICES)
def test_a_child_of_five_lowers_the_city_tax(site_url, device):
    from playwright.sync_api import expect

    with open_browser(**DEVICES[device]) as (page, errors):
        open_book(page, expect, site_url + "/book")
        check_in, check_out = choose_first_free_stay(page, expect)
        adults = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=2)
        family = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=2, children_ages=[5])
        assert family["city_tax"] < adults["city_tax"]
        city_tax = page.locator(".quote-lines tr", has_text="City tax")
        expect(city_tax.locator("td")).to_have_text(euros(adults["city_tax"]))

        page.locator("#children").select_option("1")
        expect(page.locator("#book-button")).to_be_disabled()  # the age first: it decides the tax
        page.locator("#child-age-1").select_option("5")
        expect(city_tax.locator("td")).to_have_text(euros(family["city_tax"]))
        expect(city_tax).to_contain_text("1 of 2 guests taxed")
        expect(page.locator(".quote-lines tr.total td")).to_have_text(euros(family["total"]))
        expect(page.locator("#book-button")).to_be_enabled()
        if device == "phone":
            page.locator(".quote-lines").scroll_into_view_if_needed()
            screenshot(page, "phone-booking-5-child")
        assert errors == []


@pytest.mark.parametrize("device", DEVICES)
def test_the_currency_switcher_converts_what_is_shown_and_the_charge_stays_in_euros(site_url, device):
    from playwright.sync_api import expect

    with open_browser(**DEVICES[device]) as (page, errors):
        open_book(page, expect, site_url + "/book")
        check_in, check_out = choose_first_free_stay(page, expect)
        in_euros = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=2)
        in_dollars = quote_from_api(site_url, check_in=check_in, check_out=check_out, guests=2, currency="USD")
        total = page.locator(".quote-lines tr.total td")
        expect(total).to_have_text(euros(in_euros["total"]))
        rate = page.locator(f".day[data-date='{check_in}'] .rate")
        expect(rate).to_have_text(re.compile("€"))

        page.locator("#currency").select_option("USD")
        expect(total).to_have_text(f"US${in_dollars['total']:,.2f}")
        expect(rate).to_have_text(re.compile(r"^\$\d"))
        expect(page.locator("[data-quote]")).to_contain_text(f"Charged in EUR: {euros(in_euros['total'])}.")
        expect(page.locator("#currency-help")).to_contain_text("you always pay in EUR")
        if device == "phone":
            page.locator(".quote-lines").scroll_into_view_if_needed()
            screenshot(page, "phone-booking-6-currency")
        assert errors == []
