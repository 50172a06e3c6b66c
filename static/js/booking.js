/* The date picker and live quote of /book and /availability.
 *
 * Reads GET /api/v1/calendar (what can be chosen), POST /api/v1/quote (the price, line by line) and,
 * on /book, POST /api/v1/payments/checkout-link (hold the dates, then go to the payment page) — the
 * same JSON interface agents use, so the site can never offer a stay the API would refuse.
 *
 * Keyboard: the calendar is one tab stop (roving tabindex); arrows move by day and week, Home/End to
 * the start/end of the week, Page Up/Down by month, Enter or Space chooses. Days that cannot be chosen
 * stay focusable (aria-disabled) so their reason can be read out.
 */
(() => {
  "use strict";

  const root = document.querySelector("[data-booking]");
  const configElement = document.getElementById("booking-config");
  if (!root || !configElement) return;

  const config = JSON.parse(configElement.textContent);
  const mode = root.dataset.mode; // "book", "browse" or "change" (the change-dates page)
  const $ = (selector) => root.querySelector(selector);
  const ui = {
    months: $("[data-months]"),
    prev: $("[data-prev]"),
    next: $("[data-next]"),
    range: $("[data-range]"),
    status: $("[data-status]"),
    checkInLabel: $("[data-check-in-label]"),
    checkOutLabel: $("[data-check-out-label]"),
    guests: $("[data-guests]"),
    clear: $("[data-clear]"),
    quote: $("[data-quote]"),
    error: $("[data-error]"),
    book: $("[data-book]"),
    continueLink: $("[data-continue]"),
    picker: $(".picker"),
    tip: $("[data-tip]"),
    children: $("[data-children]"),
    childAges: $("[data-child-ages]"),
    currency: $("[data-currency]"),
    bookBar: $("[data-book-bar]"),
    bookBarTotal: $("[data-book-bar-total]"),
    bookBarButton: $("[data-book-bar-button]"),
    promoCode: $("[data-promo-code]"),
    promoApply: $("[data-promo-apply]"),
    promoStatus: $("[data-promo-status]"),
    extras: Array.from(root.querySelectorAll("[data-extra]")),
    remind: $("[data-remind]"),
    remindEmail: $("[data-remind-email]"),
  };

  // --- Dates as ISO strings (YYYY-MM-DD), computed in UTC so no time zone shifts a day ---------
  const DAY_MS = 86400000;
  const toDate = (iso) => new Date(iso + "T00:00:00Z");
  const toIso = (date) => date.toISOString().slice(0, 10);
  const addDays = (iso, n) => toIso(new Date(toDate(iso).getTime() + n * DAY_MS));
  const diffDays = (from, to) => Math.round((toDate(to) - toDate(from)) / DAY_MS);
  const monthOf = (iso) => iso.slice(0, 7) + "-01";
  const addMonths = (iso, n) => {
    const date = toDate(monthOf(iso));
    date.setUTCMonth(date.getUTCMonth() + n);
    return toIso(date);
  };
  const monthsBetween = (from, to) => {
    const a = toDate(from), b = toDate(to);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  };
  const isIsoDate = (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(toDate(value).getTime()) && toIso(toDate(value)) === value;

  const format = (options) => new Intl.DateTimeFormat(config.locale === "en-IE" || !config.locale ? "en-GB" : config.locale, { timeZone: "UTC", ...options });
  const monthTitle = format({ month: "long", year: "numeric" });
  const longDate = format({ weekday: "long", day: "numeric", month: "long", year: "numeric" });
  const shortDate = format({ weekday: "short", day: "numeric", month: "short" });
  const shortDateYear = format({ weekday: "short", day: "numeric", month: "short", year: "numeric" });
  const weekdayShort = format({ weekday: "short" });
  const weekdayLong = format({ weekday: "long" });
  const money = (amount, currency = config.currency) =>
    new Intl.NumberFormat(config.locale || "en-IE", { style: "currency", currency }).format(amount);
  // The calendar's nightly prices in the currency the guest chose to see (units per EUR from the
  // owner's table, as the quote converts); the charge stays in the property's currency.
  const currencies = config.currencies || { [config.currency]: 1 };
  const moneyShort = (amount) =>
    new Intl.NumberFormat(config.locale || "en-IE", { style: "currency", currency: state.currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: 0 })
      .format(amount * (currencies[state.currency] || 1));
  // Words in the page's language: config.text maps each English phrase to its translation
  // (built with gettext in pages/booking_text.py); {name} marks a value filled in here.
  const TEXT = config.text || {};
  const t = (phrase, values = {}) => (TEXT[phrase] || phrase).replace(/\{(\w+)\}/g, (match, name) => (name in values ? values[name] : match));
  const plural = (n, word) => t(n === 1 ? `{n} ${word}` : `{n} ${word}s`, { n });

  // --- State -------------------------------------------------------------------------------------
  const today = config.today;
  const firstMonth = monthOf(today);
  const lastMonth = monthOf(addDays(today, config.bookingWindowDays + config.maxNights));
  const narrowScreen = window.matchMedia("(max-width: 40rem)");
  const stackedLayout = window.matchMedia("(max-width: 58rem)"); // the price panel below the calendar

  const calendarDays = new Map(); // ISO date → {available, check_in_allowed, check_out_allowed, min_nights, nightly_rate}
  const loads = new Map(); // month → the fetch that brings it
  const state = {
    view: firstMonth,
    checkIn: null,
    checkOut: null,
    preview: null, // the check-out under the pointer or focus, to show the range before choosing
    focus: null,
    guests: 2,
    childrenAges: [], // one entry per child: an age 0–17, or null until chosen
    currency: config.currency,
    quote: null,
    idempotencyKey: null,
  };
  let quoteRequest = null;

  // The party as the API takes it: guests in all, and the ages of the children among them (the
  // city tax is not charged for children under the property's exemption age).
  const knownAges = () => state.childrenAges.filter((age) => age !== null);
  const agesComplete = () => state.childrenAges.every((age) => age !== null);
  const party = () => ({ guests: state.guests, ...(knownAges().length ? { children_ages: knownAges() } : {}) });
  // The offers chosen on /book: a promo code (once the quote accepted it) and the extras ticked.
  const chosenExtras = () =>
    ui.extras
      .map((input) => ({ code: input.dataset.extra, quantity: input.type === "checkbox" ? (input.checked ? 1 : 0) : Number(input.value) }))
      .filter((extra) => extra.quantity > 0);
  const offers = () => ({ ...(state.promoCode ? { promo_code: state.promoCode } : {}), ...(chosenExtras().length ? { extras: chosenExtras() } : {}) });
  const extraName = (code) => {
    const input = ui.extras.find((candidate) => candidate.dataset.extra === code);
    return input ? input.dataset.extraName : code;
  };

  const visibleMonths = () => (narrowScreen.matches ? 1 : 2);

  // --- Loading the calendar ----------------------------------------------------------------------
  async function fetchMonths(start, months) {
    const url = `${config.endpoints.calendar}?start=${start}&months=${months}`;
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`calendar answered ${response.status}`);
    const body = await response.json();
    for (const day of body.days) calendarDays.set(day.date, ownNight(day.date) ? { ...day, available: true, check_in_allowed: true, check_out_allowed: true } : day);
  }

  // The change-dates page (mode "change", pages/change_dates.py): the guest's own nights are free
  // to them (the service checks the new dates against every other stay), and chosen dates lead to
  // that page's own new price, so no quote is asked for here.
  function ownNight(iso) {
    return Boolean(config.ownStay && iso >= config.ownStay.from && iso < config.ownStay.to);
  }

  // Make sure every month from `from` to `through` is loaded, fetching the missing ones in one go.
  function ensureLoaded(from, through) {
    const pending = [];
    let first = null;
    for (let month = from; month <= through; month = addMonths(month, 1)) {
      if (loads.has(month)) pending.push(loads.get(month));
      else if (!first) first = month;
    }
    if (first) {
      const count = Math.min(18, Math.max(6, monthsBetween(first, through) + 1));
      const load = fetchMonths(first, count);
      for (let i = 0, month = first; i < count; i += 1, month = addMonths(month, 1)) {
        if (!loads.has(month)) loads.set(month, load);
      }
      load.catch(() => { for (const [month, promise] of loads) if (promise === load) loads.delete(month); });
      pending.push(load);
    }
    return Promise.all(pending);
  }

  // The view plus one month ahead: a check-out may fall after the last visible day.
  const ensureView = () => ensureLoaded(state.view, addMonths(state.view, visibleMonths()));

  // --- Rules of choosing -------------------------------------------------------------------------
  const choosingCheckOut = () => state.checkIn && !state.checkOut;

  // The first night on or after `from` that cannot be sold: a stay must end on or before it.
  let blockedMemo = { from: null, night: null };
  function firstBlockedNight(from) {
    if (blockedMemo.from === from && calendarDays.size === blockedMemo.size) return blockedMemo.night;
    let night = from;
    for (let i = 0; i <= config.maxNights; i += 1, night = addDays(night, 1)) {
      const day = calendarDays.get(night);
      if (!day || !day.available) break;
    }
    blockedMemo = { from, night, size: calendarDays.size };
    return night;
  }

  function isValidCheckOut(iso) {
    const checkIn = state.checkIn;
    if (!checkIn || iso <= checkIn) return false;
    const arrival = calendarDays.get(checkIn);
    const departure = calendarDays.get(iso);
    const nights = diffDays(checkIn, iso);
    return Boolean(
      arrival && departure && departure.check_out_allowed &&
      // A gap between two stays, shorter than the minimum stay, is booked whole (to its end).
      (nights >= arrival.min_nights || (arrival.gap_night && iso === firstBlockedNight(checkIn))) && nights <= config.maxNights &&
      iso <= firstBlockedNight(checkIn)
    );
  }

  function canChoose(iso) {
    if (choosingCheckOut()) return iso === state.checkIn || isValidCheckOut(iso);
    const day = calendarDays.get(iso);
    return Boolean(day && day.check_in_allowed);
  }

  // Why a day cannot be chosen, in words for the status line and screen readers.
  function refusal(iso) {
    const day = calendarDays.get(iso);
    if (!day) return t("not open for booking yet");
    if (choosingCheckOut()) {
      if (iso < state.checkIn) return t("before your check-in; clear the dates to start again");
      const nights = diffDays(state.checkIn, iso);
      const arrival = calendarDays.get(state.checkIn);
      const minimum = arrival.min_nights;
      if (arrival.gap_night && nights < minimum && iso < firstBlockedNight(state.checkIn)) {
        return t("a gap between two stays is booked whole: check out on {date}", { date: shortDate.format(toDate(firstBlockedNight(state.checkIn))) });
      }
      if (nights < minimum) return t("stays from {date} last at least {nights}", { date: shortDate.format(toDate(state.checkIn)), nights: plural(minimum, "night") });
      if (nights > config.maxNights) return t("stays last at most {nights}", { nights: plural(config.maxNights, "night") });
      if (iso > firstBlockedNight(state.checkIn)) return t("a night in between is already booked");
      if (!day.check_out_allowed) return t("no departures on {weekday}s", { weekday: weekdayLong.format(toDate(iso)) });
      return t("not possible as check-out");
    }
    if (iso < today) return t("in the past");
    if (!day.available) return heldRefusal(iso) || t("already booked");
    return t("no arrival possible on this day (the minimum stay of {nights} does not fit, or arrivals are closed)", { nights: plural(day.min_nights, "night") });
  }

  // A night held unpaid (pages/holds.py): the guest's own hold, or another guest's that may lapse.
  function heldRefusal(iso) {
    const held = (config.holds || []).find((hold) => hold.from <= iso && iso < hold.to);
    if (!held) return "";
    if (held.mine) return t("held for you until {time} (see above)", { time: held.until });
    return t("on hold for another guest until {time}", { time: held.until });
  }

  // A gap night shows its price less the gap-night discount (the quote prices the whole stay).
  const nightPrice = (day) => (day.gap_night && day.gap_nightly_rate !== null && day.gap_nightly_rate !== undefined ? day.gap_nightly_rate : day.nightly_rate);

  function dayLabel(iso) {
    const day = calendarDays.get(iso);
    const parts = [longDate.format(toDate(iso))];
    if (iso === state.checkIn) parts.push(choosingCheckOut() ? t("your check-in; press to clear") : t("your check-in"));
    else if (iso === state.checkOut) parts.push(t("your check-out, {nights}", { nights: plural(diffDays(state.checkIn, iso), "night") }));
    else if (canChoose(iso)) {
      if (choosingCheckOut()) parts.push(t("choose as check-out, {nights}", { nights: plural(diffDays(state.checkIn, iso), "night") }));
      else if (day.gap_night) parts.push(t("a gap between two stays, bookable whole at {price} a night", { price: moneyShort(nightPrice(day)) }));
      else parts.push(t("available for check-in, {price} a night, minimum {nights}", { price: moneyShort(day.nightly_rate), nights: plural(day.min_nights, "night") }));
    } else parts.push(t("unavailable: {reason}", { reason: refusal(iso) }));
    return parts.join(", ");
  }

  // --- Rendering ---------------------------------------------------------------------------------
  function renderMonths() {
    const months = [];
    hideTip();
    for (let i = 0; i < visibleMonths(); i += 1) months.push(addMonths(state.view, i));
    ui.months.replaceChildren(...months.map(renderMonth));
    const last = months[months.length - 1];
    ui.range.textContent = months.length === 1 ? monthTitle.format(toDate(state.view)) : `${monthTitle.format(toDate(state.view))} – ${monthTitle.format(toDate(last))}`;
    ui.prev.disabled = state.view <= firstMonth;
    ui.next.disabled = last >= lastMonth;
    if (!state.focus || monthOf(state.focus) < state.view || monthOf(state.focus) > last) {
      state.focus = firstChoosableIn(state.view, last) || (monthOf(today) === state.view ? today : state.view);
    }
    refreshDays();
  }

  function renderMonth(month) {
    const wrapper = document.createElement("div");
    wrapper.className = "month";
    const table = document.createElement("table");
    const caption = table.createCaption();
    caption.textContent = monthTitle.format(toDate(month));
    const head = table.createTHead().insertRow();
    // Weeks start on Monday, as in Italy. 2024-01-01 was a Monday.
    for (let i = 0; i < 7; i += 1) {
      const weekday = toDate(addDays("2024-01-01", i));
      const th = document.createElement("th");
      th.scope = "col";
      th.abbr = weekdayLong.format(weekday);
      th.textContent = weekdayShort.format(weekday).slice(0, 2);
      head.appendChild(th);
    }
    const body = table.createTBody();
    const offset = (toDate(month).getUTCDay() + 6) % 7;
    const length = diffDays(month, addMonths(month, 1));
    let row = body.insertRow();
    for (let i = 0; i < offset; i += 1) row.insertCell();
    for (let d = 0; d < length; d += 1) {
      if ((offset + d) % 7 === 0 && d > 0) row = body.insertRow();
      const iso = addDays(month, d);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "day";
      button.dataset.date = iso;
      const number = document.createElement("span");
      number.textContent = String(d + 1);
      number.setAttribute("aria-hidden", "true");
      const rate = document.createElement("span");
      rate.className = "rate";
      rate.setAttribute("aria-hidden", "true");
      const day = calendarDays.get(iso);
      if (day) rate.textContent = moneyShort(nightPrice(day));
      if (day && day.gap_night) button.classList.add("gap-night");
      button.append(number, " ", rate);  // a space: "25 290 €" reads as two things, not "25290 €"
      row.insertCell().appendChild(button);
    }
    while (row.cells.length < 7) row.insertCell();
    wrapper.appendChild(table);
    return wrapper;
  }

  // Another display currency: rewrite the prices in place (the grid, and focus, stay).
  function refreshRates() {
    for (const button of ui.months.querySelectorAll(".day")) {
      const day = calendarDays.get(button.dataset.date);
      const rate = button.querySelector(".rate");
      if (day && rate) rate.textContent = moneyShort(nightPrice(day));
    }
    refreshDays();
  }

  function firstChoosableIn(fromMonth, throughMonth) {
    const end = addMonths(throughMonth, 1);
    for (let iso = fromMonth; iso < end; iso = addDays(iso, 1)) if (canChoose(iso)) return iso;
    return null;
  }

  // Update every visible day's state without rebuilding the grid, so focus stays where it is.
  function refreshDays() {
    const rangeEnd = state.checkOut || (choosingCheckOut() && state.preview && isValidCheckOut(state.preview) ? state.preview : null);
    for (const button of ui.months.querySelectorAll(".day")) {
      const iso = button.dataset.date;
      const day = calendarDays.get(iso);
      const choosable = canChoose(iso);
      button.setAttribute("aria-disabled", String(!choosable));
      button.setAttribute("aria-pressed", String(iso === state.checkIn || iso === state.checkOut));
      // The accessible name starts with what the button shows (day number and price), as speech
      // input users say what they see (WCAG 2.5.3); then the full date and what choosing it does.
      const shown = Array.from(button.children, (part) => part.textContent.trim()).filter(Boolean).join(" ");
      button.setAttribute("aria-label", `${shown}, ${dayLabel(iso)}`);
      button.tabIndex = iso === state.focus ? 0 : -1;
      button.classList.toggle("is-taken", !choosable && (!day || !day.available) && !(choosingCheckOut() && iso === state.checkIn));
      button.classList.toggle("is-check-in", iso === state.checkIn);
      button.classList.toggle("is-check-out", iso === state.checkOut);
      button.classList.toggle("in-range", Boolean(state.checkIn && rangeEnd && iso > state.checkIn && iso < rangeEnd) || (iso === state.preview && !state.checkOut && choosingCheckOut() && isValidCheckOut(iso)));
      button.classList.toggle("is-today", iso === today);
    }
    renderSummary();
  }

  function renderSummary() {
    ui.checkInLabel.textContent = state.checkIn ? shortDateYear.format(toDate(state.checkIn)) : t("Choose a date");
    ui.checkOutLabel.textContent = state.checkOut ? shortDateYear.format(toDate(state.checkOut)) : state.checkIn ? t("Choose a date") : "—";
    ui.clear.hidden = !state.checkIn;
    if (ui.continueLink) {
      const ready = Boolean(state.checkIn && state.checkOut);
      if (ready) ui.continueLink.href = `${bookPath()}?${stayQuery()}`;
      else ui.continueLink.removeAttribute("href");
      ui.continueLink.setAttribute("aria-disabled", String(!ready));
    }
  }

  function say(message) {
    ui.status.textContent = message;
  }

  // /book in the page's language, and the chosen stay and party as its query string.
  const bookPath = () => config.continuePath || (config.cancelUrl ? new URL(config.cancelUrl, window.location.href).pathname : "/book");
  function stayQuery() {
    const query = new URLSearchParams({ check_in: state.checkIn || "", check_out: state.checkOut || "", guests: String(state.guests) });
    if (knownAges().length) query.set("children_ages", knownAges().join(","));
    if (state.currency !== config.currency) query.set("currency", state.currency);
    return query;
  }

  // A refusal next to the day that was tapped (not in the status line far below it on a phone);
  // the tip is a polite live region, so screen readers hear it too.
  function showTip(iso, message) {
    if (!ui.tip) {
      say(message);
      return;
    }
    say("");
    ui.tip.textContent = message;
    const button = ui.months.querySelector(`[data-date="${iso}"]`);
    if (!button || !ui.picker) return;
    const area = ui.picker.getBoundingClientRect();
    const day = button.getBoundingClientRect();
    const width = ui.tip.offsetWidth, height = ui.tip.offsetHeight;
    const left = Math.min(Math.max(day.left + day.width / 2 - width / 2 - area.left, 8), Math.max(area.width - width - 8, 8));
    const below = day.bottom + height + 12 <= window.innerHeight || day.top - height - 12 < 0;
    ui.tip.style.left = `${left}px`;
    ui.tip.style.top = `${below ? day.bottom - area.top + 6 : day.top - area.top - height - 6}px`;
    ui.tip.classList.toggle("is-above", !below);
    const box = ui.tip.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) ui.tip.scrollIntoView({ block: "nearest" });
  }

  function hideTip() {
    if (ui.tip) ui.tip.textContent = "";
  }

  function showError(message, details = []) {
    ui.error.replaceChildren();
    if (!message) return;
    const box = document.createElement("div");
    box.className = "notice notice-error";
    const p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
    if (details.length) {
      const list = document.createElement("ul");
      for (const detail of details) {
        const li = document.createElement("li");
        li.textContent = detail;
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    ui.error.appendChild(box);
  }

  // --- Choosing ----------------------------------------------------------------------------------
  function choose(iso) {
    showError("");
    if (!canChoose(iso)) {
      showTip(iso, `${longDate.format(toDate(iso))}: ${refusal(iso)}.`);
      return;
    }
    hideTip();
    if (choosingCheckOut()) {
      if (iso === state.checkIn) {
        clearDates();
        return;
      }
      state.checkOut = iso;
      state.preview = null;
      const chosen = { date: longDate.format(toDate(iso)), nights: plural(diffDays(state.checkIn, iso), "night") };
      say(mode === "change" ? t("Check-out {date}: {nights}. “See the new price” shows what the change costs.", chosen) : t("Check-out {date}: {nights}. Your price is shown under “Your stay”.", chosen));
      requestQuote();
      // On a phone the price is below the calendar: bring it into view (focus stays on the day).
      if (narrowScreen.matches) {
        const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        root.querySelector(".booking-panel").scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
      }
    } else {
      state.checkIn = iso;
      state.checkOut = null;
      state.quote = null;
      renderQuote();
      const minimum = calendarDays.get(iso).min_nights;
      say(t("Check-in {date}. Now choose your check-out (at least {nights}).", { date: longDate.format(toDate(iso)), nights: plural(minimum, "night") }));
    }
    state.focus = iso;
    refreshDays();
  }

  function clearDates() {
    state.checkIn = state.checkOut = state.preview = state.quote = null;
    if (quoteRequest) quoteRequest.abort();
    renderQuote();
    refreshDays();
    say(t("Dates cleared. Choose your check-in."));
  }

  async function goToMonth(month, focusDate) {
    const last = addMonths(lastMonth, 1 - visibleMonths());
    state.view = month < firstMonth ? firstMonth : month > last ? last : month;
    if (focusDate) state.focus = focusDate;
    try {
      await ensureView();
    } catch {
      showError(t("The calendar could not be loaded. Check your connection and try again."));
      return;
    }
    renderMonths();
  }

  // --- Keyboard ----------------------------------------------------------------------------------
  const KEY_STEPS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

  async function onKeyDown(event) {
    const button = event.target.closest(".day");
    if (!button) return;
    if (event.key === "Escape") {
      hideTip();
      return;
    }
    const iso = button.dataset.date;
    let target = null;
    if (event.key in KEY_STEPS) target = addDays(iso, KEY_STEPS[event.key]);
    else if (event.key === "Home") target = addDays(iso, -((toDate(iso).getUTCDay() + 6) % 7));
    else if (event.key === "End") target = addDays(iso, 6 - ((toDate(iso).getUTCDay() + 6) % 7));
    else if (event.key === "PageUp" || event.key === "PageDown") {
      const month = addMonths(iso, event.key === "PageUp" ? -1 : 1);
      const length = diffDays(month, addMonths(month, 1));
      target = addDays(month, Math.min(Number(iso.slice(8)), length) - 1);
    } else return;
    event.preventDefault();
    if (target < firstMonth || monthOf(target) > lastMonth) return;
    const lastVisible = addMonths(state.view, visibleMonths() - 1);
    state.focus = target;
    if (monthOf(target) < state.view) await goToMonth(monthOf(target), target);
    else if (monthOf(target) > lastVisible) await goToMonth(addMonths(monthOf(target), 1 - visibleMonths()), target);
    else refreshDays();
    const next = ui.months.querySelector(`[data-date="${target}"]`);
    if (next) next.focus();
  }

  // --- Quote -------------------------------------------------------------------------------------
  const UNAVAILABLE = {
    booked: t("Some of these nights have just been booked. Please choose other dates."),
    min_stay: t("This stay is shorter than the minimum for its arrival day."),
    max_stay: t("This stay is longer than the maximum we accept."),
    closed_to_arrival: t("Arrivals are not possible on this day."),
    closed_to_departure: t("Departures are not possible on this day."),
    beyond_booking_window: t("These dates are too far ahead to book yet."),
    too_many_guests: t("At most {guests} guests can stay.", { guests: config.maxGuests }),
  };

  async function requestQuote() {
    if (!state.checkIn || !state.checkOut || mode === "change") return;
    if (quoteRequest) quoteRequest.abort();
    quoteRequest = new AbortController();
    state.quote = null;
    state.idempotencyKey = newKey(); // a new stay is a new booking attempt
    ui.quote.replaceChildren(Object.assign(document.createElement("p"), { className: "muted", textContent: t("Calculating your price…") }));
    setBookable(false);
    try {
      const response = await fetch(config.endpoints.quote, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ check_in: state.checkIn, check_out: state.checkOut, ...party(), ...offers(), currency: state.currency }),
        signal: quoteRequest.signal,
      });
      const body = await response.json().catch(() => ({}));
      const promoProblem = response.status === 422 && state.promoCode && promoRefusal(body);
      if (promoProblem) {
        // The code does not apply to this stay: say why by the field, and price the stay without it.
        state.promoCode = "";
        sayPromo(t("This code cannot be used: {reason}", { reason: promoProblem }), true);
        requestQuote();
        return;
      }
      if (response.status === 422) {
        ui.quote.replaceChildren();
        showError(t("Please check your choice:"), validationMessages(body));
        return;
      }
      if (!response.ok) throw new Error(`quote answered ${response.status}`);
      state.quote = body;
      renderQuote();
      const promo = (body.discounts || []).find((discount) => discount.code);
      if (promo) sayPromo(t("Code {code} applied: you save {amount}.", { code: promo.code, amount: money(-promo.amount, body.currency) }));
    } catch (error) {
      if (error.name === "AbortError") return;
      ui.quote.replaceChildren();
      showError(t("The price could not be calculated just now. Please try again in a moment."));
    }
  }

  function promoRefusal(body) {
    const item = Array.isArray(body && body.detail) ? body.detail.find((entry) => Array.isArray(entry.loc) && entry.loc[1] === "promo_code") : null;
    return item ? item.msg : "";
  }

  function sayPromo(message, isError = false) {
    if (!ui.promoStatus) return;
    ui.promoStatus.textContent = message;
    ui.promoStatus.classList.toggle("promo-error", isError);
  }

  function applyPromo() {
    const code = ui.promoCode.value.trim();
    state.promoCode = code;
    sayPromo(code ? t("Checking your code…") : "");
    if (state.checkIn && state.checkOut) requestQuote();
    else if (code) sayPromo(t("Choose your dates: the code is applied to their price."));
  }

  function line(label, amount, { note = "", className = "" } = {}) {
    const row = document.createElement("tr");
    if (className) row.className = className;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    if (note) th.appendChild(Object.assign(document.createElement("span"), { className: "note", textContent: note }));
    const td = document.createElement("td");
    td.textContent = money(amount, state.quote.currency);
    row.append(th, td);
    return row;
  }

  function renderQuote() {
    const quote = state.quote;
    if (!quote) {
      ui.quote.replaceChildren();
      setBookable(false);
      return;
    }
    const parts = [];
    if (!quote.available) {
      const box = document.createElement("div");
      box.className = "notice notice-error";
      box.textContent = UNAVAILABLE[quote.unavailable_reason] || t("These dates cannot be booked. Please choose others.");
      parts.push(box);
    }
    const nights = quote.nights;
    const details = document.createElement("details");
    details.className = "nights-detail";
    details.open = nights <= 7;
    details.appendChild(Object.assign(document.createElement("summary"), { textContent: t("{nights}, night by night", { nights: plural(nights, "night") }) }));
    const list = document.createElement("ul");
    for (const night of quote.nightly_rates || []) {
      const li = document.createElement("li");
      const extra = night.extra_guest_fee > 0 ?  t(" (incl. {amount} for extra guests)", { amount: money(night.extra_guest_fee, quote.currency) }) : "";
      li.append(
        Object.assign(document.createElement("span"), { textContent: `${shortDate.format(toDate(night.date))}${extra}` }),
        Object.assign(document.createElement("span"), { textContent: money(night.amount, quote.currency) }),
      );
      list.appendChild(li);
    }
    details.appendChild(list);
    parts.push(details);

    const table = document.createElement("table");
    table.className = "quote-lines";
    table.appendChild(Object.assign(document.createElement("caption"), { className: "visually-hidden", textContent: t("Price breakdown") }));
    const body = table.createTBody();
    body.appendChild(line(t("Accommodation"), quote.accommodation, { note: t("{nights}, on average {price}", { nights: plural(nights, "night"), price: money(quote.nightly_avg, quote.currency) }) }));
    for (const discount of quote.discounts || []) {
      const label = discount.code ? `${t(discount.label)} ${discount.code}` : t(discount.label);
      body.appendChild(line(discount.percent === null ? label : `${label} (−${discount.percent}%)`, discount.amount, { className: "discount" }));
    }
    if (!quote.discounts && quote.discount_amount < 0) body.appendChild(line(`${quote.discount_label || t("Discount")} (−${quote.discount_percent}%)`, quote.discount_amount, { className: "discount" }));
    body.appendChild(line(config.cleaningFeeLabel || quote.cleaning_fee_label || t("Cleaning"), quote.cleaning_fee));
    body.appendChild(line(t("City tax"), quote.city_tax, { note: cityTaxNote(quote) }));
    for (const extra of quote.extras || []) {
      body.appendChild(line(extra.quantity > 1 ? `${extraName(extra.code)} × ${extra.quantity}` : extraName(extra.code), extra.amount, { className: "extra-line" }));
    }
    body.appendChild(line(t("Total"), quote.total, { className: "total" }));
    parts.push(table);
    // A deposit now and the balance later (the owner's payment terms): say both, before paying.
    const [now, later] = quote.payment_schedule || [];
    if (later) {
      const schedule = Object.assign(document.createElement("p"), { className: "help" });
      schedule.dataset.paymentSchedule = "";
      schedule.textContent = t("Pay now: {amount}. The balance of {balance} is charged to your card on {date}.", {
        amount: money(now.amount, quote.currency),
        balance: money(later.amount, quote.currency),
        date: shortDateYear.format(toDate(later.due_date)),
      });
      parts.push(schedule);
    }
    // The refundable security deposit: a hold on the card before arrival, never part of the total.
    const hold = quote.security_deposit;
    if (hold && hold.amount > 0 && state.checkIn && state.checkOut) {
      const days = config.securityDeposit || { daysBefore: 1, releaseDays: 3 };
      const note = Object.assign(document.createElement("p"), { className: "help" });
      note.dataset.securityDeposit = "";
      note.textContent = t("Refundable security deposit (card hold): {amount}, not part of the total. It is held on your card on {placed} and released by {released}; it is charged only for damage.", {
        amount: money(hold.amount, hold.currency),
        placed: shortDateYear.format(toDate(addDays(state.checkIn, -days.daysBefore))),
        released: shortDateYear.format(toDate(addDays(state.checkOut, days.releaseDays))),
      });
      parts.push(note);
    }
    if (quote.currency !== quote.charge_currency && quote.charge_currency) {
      parts.push(Object.assign(document.createElement("p"), { className: "help", textContent: t("Charged in {currency}: {amount}.", { currency: quote.charge_currency, amount: money(quote.charge_total, quote.charge_currency) }) }));
    }
    ui.quote.replaceChildren(...parts);
    setBookable(Boolean(quote.available));
  }

  // With children's ages given, say how many guests were taxed (the API's note ends with
  // "2 of 4 guests taxed"); without them, the API's note on how the tax is counted.
  function cityTaxNote(quote) {
    const note = config.cityTaxNote || quote.city_tax_note || "";  // the page's language; the API's is English
    const ages = knownAges();
    if (!ages.length) return note;
    const counted = /(\d+) of (\d+) guests taxed/.exec(note);
    const exemptUnder = config.cityTaxExemptUnderAge;
    const taxed = counted ? Number(counted[1]) : state.guests - ages.filter((age) => exemptUnder && age < exemptUnder).length;
    const guests = counted ? Number(counted[2]) : state.guests;
    return exemptUnder
      ? t("{taxed} of {guests} guests taxed: children under {age} pay no city tax", { taxed, guests, age: exemptUnder })
      : t("{taxed} of {guests} guests taxed", { taxed, guests });
  }

  function validationMessages(body) {
    return Array.isArray(body && body.detail) ? body.detail.map((item) => item.msg).filter(Boolean) : [];
  }

  // --- Booking -----------------------------------------------------------------------------------
  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // available on plain-http addresses too, unlike randomUUID
    return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function setBookable(ready) {
    if (!ui.book) return;
    ui.book.disabled = !(ready && agesComplete());
    ui.book.textContent = t("Book and pay");
    updateBookBar();
  }

  // On a phone the pay button sits below the calendar: once the price is known, a bar at the
  // bottom of the screen shows the total and books, while the button itself is out of sight.
  let bookButtonInView = false;
  function updateBookBar() {
    if (!ui.bookBar || !ui.book) return;
    const ready = Boolean(state.quote && state.quote.available && !ui.book.disabled);
    const show = ready && stackedLayout.matches && !bookButtonInView;
    if (ready) ui.bookBarTotal.textContent = t("{amount} total", { amount: money(state.quote.total, state.quote.currency) });
    ui.bookBar.hidden = !show;
    document.body.classList.toggle("has-book-bar", show);
  }

  // The one reminder of an unfinished booking (pages/hold_reminders.py): the address, only when the
  // box is ticked; "" for no reminder, null for a ticked box without a usable address.
  function reminderAddress() {
    if (!ui.remind || !ui.remind.checked) return "";
    const address = ui.remindEmail ? ui.remindEmail.value.trim() : "";
    return address && ui.remindEmail.checkValidity() ? address : null;
  }

  async function askForReminder(reservationId, address) {
    // Best effort, and brief: the guest goes on to pay whatever the answer.
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), 4000);
    try {
      await fetch(config.endpoints.remind, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ reservation_id: reservationId, email: address }),
        signal: controller.signal,
      });
    } catch {
      /* no reminder then; the booking itself is unaffected */
    } finally {
      window.clearTimeout(timer);
    }
  }

  async function book() {
    if (!state.quote || !state.quote.available) return;
    showError("");
    const reminder = reminderAddress();
    if (reminder === null) {
      showError(t("Please give your email for the reminder, or untick the box."));
      ui.remindEmail.focus();
      return;
    }
    ui.book.disabled = true;
    ui.book.textContent = t("Holding your dates…");
    let response, body;
    try {
      response = await fetch(config.endpoints.checkoutLink, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": state.idempotencyKey || newKey() },
        body: JSON.stringify({
          check_in: state.checkIn, check_out: state.checkOut, ...party(), ...offers(), ...(config.returnUrls || {}),
          // Back without paying: this page again, with the stay and the party kept.
          ...(config.cancelUrl ? { cancel_url: `${config.cancelUrl}?${stayQuery()}` } : {}),
        }),
      });
      body = await response.json().catch(() => ({}));
    } catch {
      setBookable(true);
      showError(t("We could not reach the booking service. Check your connection and try again; nothing was booked."));
      return;
    }
    if (response.ok && body.checkout_url) {
      ui.book.textContent = t("Opening secure payment…");
      say(t("Your dates are held for {minutes} minutes while you pay.", { minutes: config.holdMinutes }));
      if (reminder && body.reservation_id) await askForReminder(body.reservation_id, reminder);
      window.location.assign(body.checkout_url);
      return;
    }
    if (response.status === 409 && body.code === "dates_unavailable") {
      showError(t("Sorry — another guest booked some of these nights a moment ago. The calendar has been refreshed; please choose other dates."));
      await reloadCalendar();
      clearDates();
      return;
    }
    setBookable(true);
    if (response.status === 409) {
      state.idempotencyKey = newKey();
      showError(body.detail || t("This booking could not be completed. Please try again."));
    } else if (response.status === 422) {
      showError(t("Please check your choice:"), validationMessages(body));
    } else if (response.status === 429) {
      const wait = Number(response.headers.get("Retry-After")) || 60;
      showError(t("Too many booking attempts from your connection. Please try again in {minutes}, or contact us.", { minutes: plural(Math.ceil(wait / 60), "minute") }));
    } else {
      showError((typeof body.detail === "string" && body.detail) || t("Something went wrong on our side; nothing was booked. Please try again in a moment."));
    }
  }

  async function reloadCalendar() {
    calendarDays.clear();
    loads.clear();
    try {
      await ensureView();
    } catch {
      /* the error is shown when the next load fails too */
    }
    renderMonths();
  }

  // --- Start -------------------------------------------------------------------------------------
  // --- The party: children and their ages ---------------------------------------------------------
  function renderParty() {
    state.childrenAges = state.childrenAges.slice(0, state.guests - 1);
    if (!ui.children) return;
    for (const option of ui.children.options) option.disabled = Number(option.value) > state.guests - 1;
    ui.children.value = String(state.childrenAges.length);
    const selects = ui.childAges.querySelectorAll("select");
    if (selects.length !== state.childrenAges.length) {
      const rows = state.childrenAges.map((age, index) => {
        const row = document.createElement("div");
        row.className = "child-age";
        const label = document.createElement("label");
        label.htmlFor = `child-age-${index + 1}`;
        label.textContent = t("Age of child {n}", { n: index + 1 });
        const select = document.createElement("select");
        select.id = label.htmlFor;
        select.dataset.child = String(index);
        select.append(new Option(t("Choose"), ""));
        for (let years = 0; years <= 17; years += 1) select.append(new Option(String(years), String(years)));
        row.append(label, select);
        return row;
      });
      const hint = document.createElement("p");
      hint.className = "help";
      hint.dataset.agesHint = "";
      ui.childAges.replaceChildren(...rows, hint);
    }
    ui.childAges.querySelectorAll("select").forEach((select, index) => {
      const age = state.childrenAges[index];
      select.value = age === null ? "" : String(age);
    });
    const hint = ui.childAges.querySelector("[data-ages-hint]");
    if (hint) hint.textContent = agesComplete() ? "" : t("Choose each child's age to book: it decides the city tax.");
  }

  function onPartyChange() {
    renderParty();
    renderSummary();
    if (state.quote || (state.checkIn && state.checkOut)) requestQuote();
    else setBookable(false);
  }

  function applyInitialChoice() {
    const initial = config.initial || {};
    const guests = Number(initial.guests);
    if (Number.isInteger(guests) && guests >= 1 && guests <= config.maxGuests) state.guests = guests;
    ui.guests.value = String(state.guests);
    const ages = String(initial.children_ages || "").split(",").filter((part) => /^\d{1,2}$/.test(part.trim())).map(Number).filter((age) => age <= 17);
    state.childrenAges = ages.slice(0, state.guests - 1);
    renderParty();
    if (initial.currency && initial.currency.toUpperCase() in currencies) state.currency = initial.currency.toUpperCase();
    if (ui.currency) ui.currency.value = state.currency;
    // The offers of a hold resumed from its reminder: the quote checks the code and the extras again.
    for (const part of String(initial.extras || "").split(",")) {
      const [code, quantity] = part.split(":");
      const input = ui.extras.find((candidate) => candidate.dataset.extra === code);
      const count = Number(quantity);
      if (!input || !Number.isInteger(count) || count < 1) continue;
      if (input.type === "checkbox") input.checked = true;
      else if ([...input.options].some((option) => Number(option.value) === count)) input.value = String(count);
    }
    if (initial.promo_code && ui.promoCode) {
      ui.promoCode.value = String(initial.promo_code).trim();
      state.promoCode = ui.promoCode.value;
      const box = ui.promoCode.closest("details");
      if (box) box.open = true; // the guest sees the code that was brought back
    }
    if (isIsoDate(initial.check_in) && calendarDays.get(initial.check_in)?.check_in_allowed) {
      state.checkIn = initial.check_in;
      state.view = monthOf(initial.check_in);
      state.focus = initial.check_in;
      if (isIsoDate(initial.check_out) && isValidCheckOut(initial.check_out)) state.checkOut = initial.check_out;
    }
  }

  async function start() {
    ui.months.addEventListener("click", (event) => {
      const button = event.target.closest(".day");
      if (button) choose(button.dataset.date);
    });
    ui.months.addEventListener("keydown", onKeyDown);
    const preview = (event) => {
      const button = event.target.closest(".day");
      if (!choosingCheckOut()) return;
      state.preview = button ? button.dataset.date : null;
      refreshDays();
    };
    ui.months.addEventListener("mouseover", preview);
    ui.months.addEventListener("focusin", (event) => {
      const button = event.target.closest(".day");
      if (button) state.focus = button.dataset.date;
      preview(event);
    });
    ui.prev.addEventListener("click", () => goToMonth(addMonths(state.view, -1)));
    ui.next.addEventListener("click", () => goToMonth(addMonths(state.view, 1)));
    ui.clear.addEventListener("click", clearDates);
    ui.guests.addEventListener("change", () => {
      state.guests = Number(ui.guests.value);
      onPartyChange();
    });
    if (ui.children) {
      ui.children.addEventListener("change", () => {
        const count = Math.min(Number(ui.children.value), state.guests - 1);
        state.childrenAges = Array.from({ length: count }, (_, index) => (index < state.childrenAges.length ? state.childrenAges[index] : null));
        onPartyChange();
      });
      ui.childAges.addEventListener("change", (event) => {
        const select = event.target.closest("select[data-child]");
        if (!select) return;
        state.childrenAges[Number(select.dataset.child)] = select.value === "" ? null : Number(select.value);
        onPartyChange();
      });
    }
    if (ui.currency) {
      ui.currency.addEventListener("change", () => {
        state.currency = ui.currency.value in currencies ? ui.currency.value : config.currency;
        refreshRates();
        renderSummary();
        requestQuote();
      });
    }
    if (ui.promoApply) {
      ui.promoApply.addEventListener("click", applyPromo);
      ui.promoCode.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          applyPromo();
        }
      });
    }
    for (const input of ui.extras) input.addEventListener("change", () => {
      if (state.checkIn && state.checkOut) requestQuote();
    });
    if (ui.book) ui.book.addEventListener("click", book);
    if (ui.book && ui.bookBar && "IntersectionObserver" in window) {
      new IntersectionObserver((entries) => {
        bookButtonInView = entries[entries.length - 1].isIntersecting;
        updateBookBar();
      }).observe(ui.book);
      stackedLayout.addEventListener("change", updateBookBar);
      ui.bookBarButton.addEventListener("click", () => {
        const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        ui.book.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "center" });
        book();
      });
    }
    document.addEventListener("click", (event) => {
      if (!event.target.closest(".day")) hideTip(); // a tap anywhere else, the tip itself too, puts it away
    });
    narrowScreen.addEventListener("change", () => goToMonth(state.view));

    // "Release them" beside this browser's own hold (pages/holds.py): the API's DELETE, then the
    // page again, which shows the dates free (or, if the payment went through meanwhile, not).
    for (const button of document.querySelectorAll("[data-release-hold]")) {
      button.addEventListener("click", async () => {
        button.disabled = true;
        await fetch(`/api/v1/reservations/${encodeURIComponent(button.dataset.releaseHold)}`, { method: "DELETE", headers: { Accept: "application/json" } }).catch(() => null);
        window.location.reload();
      });
    }
    if (config.releaseHold) {
      // Back from the payment page without paying: let go of this guest's own unpaid hold at once
      // (the API's DELETE), so the very same dates can be chosen again.
      await fetch(`/api/v1/reservations/${encodeURIComponent(config.releaseHold)}`, { method: "DELETE", headers: { Accept: "application/json" } }).catch(() => null);
    }
    try {
      // Six months in the first request (a small answer, a fast first paint); further months load
      // as the guest moves on.
      await ensureLoaded(firstMonth, addMonths(firstMonth, 5));
      const initial = config.initial || {};
      if (isIsoDate(initial.check_in) && monthOf(initial.check_in) <= lastMonth) {
        await ensureLoaded(monthOf(initial.check_in), addMonths(monthOf(initial.check_in), 2));
      }
    } catch {
      ui.months.replaceChildren(Object.assign(document.createElement("p"), { className: "notice notice-error", textContent: t("The calendar could not be loaded. Please reload the page, or contact us to book.") }));
      return;
    }
    applyInitialChoice();
    // The change-dates page opens on the month of the stay being changed.
    if (!state.checkIn && config.ownStay && monthOf(config.ownStay.from) <= lastMonth) state.view = monthOf(config.ownStay.from);
    await goToMonth(state.view);
    if (state.checkIn && state.checkOut) requestQuote();
    say(state.checkIn ? "" : t("Choose your check-in date."));
  }

  start();
})();
