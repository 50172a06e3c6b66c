// The property form (PropertyAdmin): tabs over its sections, and arrows to order the photos.
// Sections carry a class "tab-<name>"; the tab buttons are in the page (change_form.html).
// Without this script the form is one long page and photo positions are typed.
(function () {
  "use strict";

  function panelOf(section) {
    return section.closest(".inline-group") || section;
  }

  function setUpTabs() {
    var tablist = document.getElementById("property-tabs");
    if (!tablist) return;
    var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
    var panels = {};
    tabs.forEach(function (tab) {
      var name = tab.getAttribute("data-tab");
      panels[name] = Array.prototype.slice.call(document.querySelectorAll(".tab-" + name)).map(panelOf);
      tab.id = "property-tab-" + name;
      panels[name].forEach(function (panel) {
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", tab.id);
      });
    });

    function show(name, focus) {
      tabs.forEach(function (tab) {
        var selected = tab.getAttribute("data-tab") === name;
        tab.setAttribute("aria-selected", selected ? "true" : "false");
        tab.tabIndex = selected ? 0 : -1;
        if (selected && focus) tab.focus();
        panels[tab.getAttribute("data-tab")].forEach(function (panel) { panel.hidden = !selected; });
      });
      if (window.history && window.history.replaceState) window.history.replaceState(null, "", "#tab-" + name);
    }

    tabs.forEach(function (tab, index) {
      tab.addEventListener("click", function () { show(tab.getAttribute("data-tab"), false); });
      tab.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        show(tabs[(index + step + tabs.length) % tabs.length].getAttribute("data-tab"), true);
      });
    });
    tablist.hidden = false;

    // Open the tab with the first error, else the one in the address, else the first.
    var wanted = (window.location.hash.match(/^#tab-(\w+)$/) || [])[1];
    var firstError = document.querySelector(".errorlist, .errors");
    if (firstError) {
      Object.keys(panels).forEach(function (name) {
        panels[name].forEach(function (panel) { if (panel.contains(firstError) && !wanted) wanted = name; });
      });
    }
    show(panels[wanted] ? wanted : tabs[0].getAttribute("data-tab"), false);
  }

  function setUpPhotoOrdering() {
    var group = document.querySelector(".photo-inline");
    if (!group) return;
    var body = group.querySelector("tbody");

    function rows() {
      return Array.prototype.slice.call(body.querySelectorAll("tr.form-row:not(.empty-form)"));
    }
    function renumber() {
      rows().forEach(function (row, index) {
        var position = row.querySelector("input[name$='-position']");
        if (position) position.value = index;
      });
    }
    function move(row, step) {
      var list = rows();
      var index = list.indexOf(row);
      var other = list[index + step];
      if (!other) return;
      if (step < 0) body.insertBefore(row, other);
      else body.insertBefore(other, row);
      renumber();
    }
    // The words come from the page (change_form.html), in the back office's language.
    var tablist = document.getElementById("property-tabs");
    var words = {
      earlier: (tablist && tablist.getAttribute("data-photo-earlier")) || "Show this photo earlier",
      later: (tablist && tablist.getAttribute("data-photo-later")) || "Show this photo later",
    };
    rows().forEach(function (row) {
      var cell = row.querySelector("td.field-thumbnail") || row.querySelector("td.original") || row.cells[0];
      ["up", "down"].forEach(function (direction) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "photo-move photo-move-" + direction;
        button.textContent = direction === "up" ? "↑" : "↓";
        button.setAttribute("aria-label", direction === "up" ? words.earlier : words.later);
        button.addEventListener("click", function () {
          move(row, direction === "up" ? -1 : 1);
          button.focus();
        });
        cell.appendChild(button);
      });
    });
  }

  function start() {
    setUpTabs();
    setUpPhotoOrdering();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
