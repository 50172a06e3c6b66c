"""On a phone, in a real browser: a guest books a stay two months ahead and pays the 30 % deposit
in the sandbox, then pays the balance early from their booking page, then downloads a receipt."""

import re

import pytest
import requests

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import euros

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def pay_in_the_sandbox(page, expect, email: str) -> None:
    expect(page.locator("#pay-button")).to_be_visible()
    page.fill("input[name='email']", email)
    page.fill("input[name='name']", "Ada Lovelace")
    page.fill("input[name='phone']", "+44 20 7946 0958")
    page.locator("#pay-button").click()


def test_a_deposit_on_a_phone_then_the_balance_early_then_the_receipt(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE, accept_downloads=True) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        page.locator("[data-next]").click()
        page.locator("[data-next]").click()  # two months ahead: well before the balance's due date
        page.locator(".day[aria-disabled='false']").first.click()
        page.locator(".day[aria-disabled='false']").nth(1).click()
        schedule = page.locator("[data-payment-schedule]")
        expect(schedule).to_contain_text("Pay now:")
        expect(schedule).to_contain_text("The balance of")
        expect(page.locator("[data-security-deposit]")).to_contain_text("Refundable security deposit (card hold): €300.00, not part of the total")
        screenshot(page, "deposit-1-quote")
        page.locator("#book-button").click()
        pay_in_the_sandbox(page, expect, "deposit.guest@example.com")

        page.wait_for_url(re.compile(r"/thank-you\?reservation_id=res_"))
        reservation_id = page.url.split("reservation_id=")[1].split("&")[0]
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "confirmed")
        payment = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()["payment"]
        assert payment["status"] == "deposit_paid" and payment["balance_due"] > 0

        page.locator("[data-manage-link]").click()
        page.wait_for_url(re.compile(r"/manage/[A-Za-z0-9_-]{40,}$"))
        expect(page.locator("[data-paid]")).to_have_text(euros(payment["amount_paid"]))
        expect(page.locator("[data-balance-due]")).to_have_text(euros(payment["balance_due"]))
        expect(page.locator("[data-security-deposit]")).to_contain_text("card hold")
        screenshot(page, "deposit-2-manage")

        page.locator("#pay-balance").click()
        page.get_by_role("button", name=re.compile("Pay .* now")).click()
        pay_in_the_sandbox(page, expect, "deposit.guest@example.com")
        page.wait_for_url(re.compile(r"/manage/[A-Za-z0-9_-]{40,}\?paid=1$"))
        page.reload()
        expect(page.locator("[data-balance-due]")).to_have_count(0)
        total = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()["price_breakdown"]["total"]
        expect(page.locator("[data-paid]")).to_have_text(euros(total))
        screenshot(page, "deposit-3-paid")

        receipts = page.locator("[data-receipts] a")
        expect(receipts).to_have_count(2)  # the deposit's and the balance's
        with page.expect_download() as download:
            receipts.nth(1).click()
        path = download.value.path()
        assert download.value.suggested_filename.endswith(".pdf")
        with open(path, "rb") as pdf:
            assert pdf.read(5) == b"%PDF-"
        assert errors == [], f"JavaScript errors: {errors}"

    final = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()["payment"]
    assert final["status"] == "paid" and final["balance_due"] == 0
