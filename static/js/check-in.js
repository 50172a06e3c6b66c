// Typeahead for the comune of birth: fills the shared <datalist> from {check-in}/comuni?q=, and
// when a suggestion "Firenze (FI)" is picked, splits it into the comune and province fields.
(function () {
  "use strict";
  var form = document.querySelector("form[data-comuni-url]");
  var list = document.getElementById("comuni");
  if (!form || !list) return;
  var url = form.getAttribute("data-comuni-url");
  var pending = null;
  form.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.hasAttribute("data-comune")) return;
    var match = /^(.*)\s+\(([A-Z]{2})\)$/.exec(input.value);
    if (match) {
      input.value = match[1];
      var province = input.closest("[data-born-in-italy]").querySelector("[data-province]");
      if (province) province.value = match[2];
      return;
    }
    if (input.value.length < 2) return;
    clearTimeout(pending);
    pending = setTimeout(function () {
      fetch(url + "?q=" + encodeURIComponent(input.value), { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : { comuni: [] }; })
        .then(function (body) {
          list.textContent = "";
          body.comuni.forEach(function (comune) {
            var option = document.createElement("option");
            option.value = comune.name + " (" + comune.province + ")";
            list.appendChild(option);
          });
        })
        .catch(function () {});
    }, 150);
  });
})();
