/* The property's photos full screen (templates/pages/_lightbox.html).
 *
 * Without this script every thumbnail is a plain link to its largest image; with it, a click opens
 * a modal <dialog>: arrows and swipes move between photos, Esc closes, Tab stays inside, and focus
 * goes back to the thumbnail that opened it. No inline code or style: the site's CSP forbids both.
 * The wording (counter, announcement) comes from the template, in the page's language. */
(function () {
  "use strict";

  var gallery = document.querySelector("[data-gallery]");
  var dialog = document.querySelector("[data-lightbox]");
  if (!gallery || !dialog || typeof dialog.showModal !== "function") return;

  var links = Array.prototype.slice.call(gallery.querySelectorAll("[data-gallery-item]"));
  var image = dialog.querySelector("[data-lightbox-image]");
  var webp = dialog.querySelector("[data-lightbox-webp]");
  var caption = dialog.querySelector("[data-lightbox-caption]");
  var counter = dialog.querySelector("[data-lightbox-counter]");
  var status = dialog.querySelector("[data-lightbox-status]");
  var stage = dialog.querySelector("[data-lightbox-stage]");
  var closeButton = dialog.querySelector("[data-lightbox-close]");
  var previousButton = dialog.querySelector("[data-lightbox-previous]");
  var nextButton = dialog.querySelector("[data-lightbox-next]");
  var SWIPE_MIN_PX = 40;

  var current = 0;
  var opener = null;

  function fill(pattern, position) {
    return pattern.replace("{current}", String(position + 1)).replace("{total}", String(links.length));
  }

  function show(index) {
    current = (index + links.length) % links.length;
    var link = links[current];
    var alt = link.getAttribute("data-alt") || "";
    // The largest copy: WebP where there is one (an upload), else the JPEG or the SVG it links to.
    if (link.getAttribute("data-full-webp")) {
      webp.setAttribute("srcset", link.getAttribute("data-full-webp"));
    } else {
      webp.removeAttribute("srcset");
    }
    image.src = link.href;
    image.alt = alt;
    if (link.getAttribute("data-width")) image.width = Number(link.getAttribute("data-width"));
    if (link.getAttribute("data-height")) image.height = Number(link.getAttribute("data-height"));
    caption.textContent = alt;
    counter.textContent = fill(dialog.getAttribute("data-counter"), current);
    status.textContent = fill(dialog.getAttribute("data-status"), current);
    preload(current + 1);
    preload(current - 1);
  }

  function preload(index) {
    if (links.length < 2) return;
    var link = links[(index + links.length) % links.length];
    var next = new Image();
    next.src = link.getAttribute("data-full-webp") || link.href;
  }

  function open(index, from) {
    opener = from;
    show(index);
    document.documentElement.classList.add("lightbox-open");
    dialog.showModal();
    (nextButton || closeButton).focus();
  }

  function close() {
    if (dialog.open) dialog.close();
  }

  function focusable() {
    return Array.prototype.filter.call(
      dialog.querySelectorAll("button, [href], [tabindex]:not([tabindex='-1'])"),
      function (element) { return !element.disabled && element.offsetParent !== null; }
    );
  }

  links.forEach(function (link, index) {
    link.addEventListener("click", function (event) {
      // A new tab or window was asked for: the link does what links do.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      open(index, link);
    });
  });

  dialog.addEventListener("close", function () {
    document.documentElement.classList.remove("lightbox-open");
    if (opener) opener.focus();
    opener = null;
  });

  dialog.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      show(current + 1);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      show(current - 1);
    } else if (event.key === "Home") {
      event.preventDefault();
      show(0);
    } else if (event.key === "End") {
      event.preventDefault();
      show(links.length - 1);
    } else if (event.key === "Tab") {
      // The dialog is modal: Tab and Shift+Tab go round its buttons, never out to the page or the browser.
      var items = focusable();
      if (!items.length) return;
      var first = items[0];
      var last = items[items.length - 1];
      var inside = dialog.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  // The native dialog closes itself on Esc too (a "cancel"); the close handler above restores focus.
  closeButton.addEventListener("click", close);
  if (previousButton) previousButton.addEventListener("click", function () { show(current - 1); });
  if (nextButton) nextButton.addEventListener("click", function () { show(current + 1); });

  // A click on the dark surround (the dialog itself, not the photo or a button) closes it.
  dialog.addEventListener("click", function (event) {
    if (event.target === dialog || event.target === stage) close();
  });

  // Swipe: a mostly horizontal drag of SWIPE_MIN_PX or more moves to the next or previous photo.
  var touchStart = null;
  dialog.addEventListener("touchstart", function (event) {
    if (event.touches.length !== 1) { touchStart = null; return; }
    touchStart = { x: event.touches[0].clientX, y: event.touches[0].clientY };
  }, { passive: true });
  dialog.addEventListener("touchend", function (event) {
    if (!touchStart || !event.changedTouches.length) return;
    var dx = event.changedTouches[0].clientX - touchStart.x;
    var dy = event.changedTouches[0].clientY - touchStart.y;
    touchStart = null;
    if (links.length > 1 && Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > 1.5 * Math.abs(dy)) {
      show(dx < 0 ? current + 1 : current - 1);
    }
  }, { passive: true });
  dialog.addEventListener("touchcancel", function () { touchStart = null; }, { passive: true });
})();
