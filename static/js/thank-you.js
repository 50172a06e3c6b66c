// "Almost there": the payment provider's webhook may land a moment after the guest does.
// Ask for the reservation every 3 seconds (for up to two minutes) and reload once it is decided.
// A static file, because the site's Content-Security-Policy allows no inline scripts.
(() => {
  const badge = document.querySelector("[data-poll-reservation]");
  if (!badge) return;
  const id = badge.dataset.pollReservation;
  let tries = 0;
  const check = async () => {
    tries += 1;
    try {
      const response = await fetch("/api/v1/reservations/" + encodeURIComponent(id), { headers: { Accept: "application/json" } });
      if (response.ok && (await response.json()).status !== "held") {
        window.location.reload();
        return;
      }
    } catch {
      /* a network blip: try again */
    }
    if (tries < 40) setTimeout(check, 3000);
  };
  setTimeout(check, 2000);
})();
