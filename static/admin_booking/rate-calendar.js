// The rate calendar: click a night, then another, to choose the nights from the first to the last;
// the form's first and last night follow. A third click starts a new choice. Keyboard: the nights
// are buttons (Tab, Enter/Space).
(function () {
  "use strict";
  function start() {
    var table = document.getElementById("rate-calendar");
    var form = document.getElementById("rate-form");
    if (!table || !form) return;
    var first = form.querySelector("[name=first_night]");
    var last = form.querySelector("[name=last_night]");
    var anchor = null;
    var buttons = Array.prototype.slice.call(table.querySelectorAll("button.night"));

    function mark(from, to) {
      buttons.forEach(function (b) {
        var night = b.getAttribute("data-night");
        b.setAttribute("aria-pressed", from && night >= from && night <= to ? "true" : "false");
      });
    }

    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        var night = button.getAttribute("data-night");
        if (anchor === null) {
          anchor = night;
          first.value = night;
          last.value = night;
        } else {
          first.value = night < anchor ? night : anchor;
          last.value = night < anchor ? anchor : night;
          anchor = null;
        }
        mark(first.value, last.value);
      });
    });
    [first, last].forEach(function (input) {
      input.addEventListener("change", function () { mark(first.value, last.value || first.value); });
    });
    if (first.value) mark(first.value, last.value || first.value);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
