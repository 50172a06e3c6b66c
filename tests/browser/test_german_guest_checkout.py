"""A German guest books with an extra on a 390 px phone and reaches the sandbox checkout: the page
lists the whole stay in German (the airport transfer, the cleaning fee's German name, the city
tax), its lines add up to the stay's total, and a sentence says what is paid now: the 30 % deposit
of the total and the balance with its date (DESIGN "Finishing what a guest and an owner see").

Screenshots go to test-artifacts/browser/de-checkout-*.png."""

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def euros(text: str) -> list[Decimal]:
    """ "1.234,50 €", "−72,00 €" as German writes them."""
    return [Decimal(v.replace("−", "-").replace(".", "").replace(",", ".")) for v in re.findall(r"(−?[\d.]+,\d\d)\s*€", text)]


def test_a_german_guest_sees_the_whole_stay_and_the_deposit_on_the_payment_page(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/de/book")
        expect(page.locator(".day").first).to_be_visible()
        for _ in range(3):  # three months ahead: more than 30 days away, so a deposit now
            page.locator("[data-next]").click()
        arrival = page.locator(".day[aria-disabled='false']").first
        check_in = date.fromisoformat(arrival.get_attribute("data-date"))
        assert (check_in - date.today()).days > 31
        check_out = check_in + timedelta(days=3)
        arrival.click()
        page.locator(f".day[data-date='{check_out}']").click()
        expect(page.locator(".quote-lines tr.total")).to_be_visible()
        page.get_by_label(re.compile("Flughafentransfer")).select_option("1")
        expect(page.locator(".quote-lines")).to_contain_text("Flughafentransfer")
        page.locator("#book-button").scroll_into_view_if_needed()
        page.locator("#book-button").click()

        expect(page.locator("#pay-button")).to_be_visible()
        assert "/payments/sandbox/" in page.url
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"] + 1
        screenshot(page, "de-checkout-1-payment-page")
        table = page.locator("table").first
        labels = [cell.strip() for cell in table.locator("tr td:first-child").all_inner_texts()]
        values = euros(" ".join(table.locator("td.amount").all_inner_texts()))
        sentence = page.locator("[data-paid-now]").inner_text()
        banner = page.locator(".banner").inner_text()
        pay_button = page.locator("#pay-button").inner_text()
        assert errors == [], f"JavaScript errors: {errors}"

    assert "Flughafentransfer" in labels and "Endreinigung, Bettwäsche und Handtücher" in labels and "Kurtaxe" in labels
    assert labels[-2:] == ["Gesamtpreis des Aufenthalts", "Jetzt zu zahlen (Test)"]
    *lines, stay_total, paid_now = values
    assert sum(lines) == stay_total and paid_now < stay_total
    assert paid_now == (stay_total * Decimal("0.30")).quantize(Decimal("0.01"))
    # "Anzahlung 30 % von 849,00 €: 254,70 €; Restbetrag 594,30 € am 26. Dez. 2026"
    assert sentence.startswith("Anzahlung 30 % von ") and " Restbetrag " in sentence
    assert euros(sentence) == [stay_total, paid_now, stay_total - paid_now]
    due = check_in - timedelta(days=30)
    assert re.search(rf" am {due.day}\. \w+\.? {due.year}$", sentence), sentence
    assert banner.startswith("TESTZAHLUNG — es wird kein Geld bewegt") and "no money" not in banner
    assert "Test" in pay_button and "Pay" not in pay_button
