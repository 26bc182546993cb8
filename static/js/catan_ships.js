// Catan with ships on the page. Every lit place on the board is a real button (or a small
// list of buttons) in a form that htmx posts; without this file they are a plain list under
// the board. This file lays them over the board at their places (data-x, data-y: percent of
// the board), keeps at most one place's list open, and closes it on Escape or a click
// elsewhere. It runs on each new live part (htmx.onLoad) and keeps no state outside it.
(function () {
  "use strict";

  function place(root) {
    root.querySelectorAll(".cs-board").forEach(function (board) {
      var ratio = Number(board.getAttribute("data-ratio"));
      if (ratio) board.style.setProperty("--ratio", ratio);
      // One hex radius in percent of the board's width: the lit places are sized by it.
      var units = Number(board.getAttribute("data-units"));
      if (units) board.style.setProperty("--u", (100 / units) + "%");
      var spots = board.querySelector(".cs-spots");
      if (!spots) return;
      spots.querySelectorAll("[data-x]").forEach(function (el) {
        var x = Number(el.getAttribute("data-x")), y = Number(el.getAttribute("data-y"));
        el.style.left = x + "%";
        el.style.top = y + "%";
        if (el.tagName === "DETAILS") {
          el.classList.toggle("east", x > 60);
          el.classList.toggle("south", y > 62);
        }
      });
      spots.classList.add("placed");
    });
  }

  // The live part is replaced after every action, by the action's answer and again by the
  // socket: focus inside it would fall back to the top of the page. While the player is working
  // in it, put the focus on the next lit place (or the turn's first button) instead, without
  // scrolling, so a keyboard player carries on where they were.
  var inLive = false;
  document.addEventListener("focusin", function (event) {
    inLive = !!(event.target.closest && event.target.closest("#cs-live"));
  });

  function refocus(root) {
    if (!inLive) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var next = root.querySelector(".cs-spots.placed .cs-spot, .cs-actions button");
    if (next) next.focus({preventScroll: true});
  }

  function closeMenus(except) {
    document.querySelectorAll(".cs-spot-menu[open]").forEach(function (d) {
      if (d !== except) d.removeAttribute("open");
    });
  }

  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (d.classList && d.classList.contains("cs-spot-menu") && d.open) closeMenus(d);
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".cs-spot-menu")) closeMenus(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector(".cs-spot-menu[open]");
    if (open) {
      open.removeAttribute("open");
      open.querySelector("summary").focus({preventScroll: true});
    }
  });

  if (window.htmx) {
    window.htmx.onLoad(function (root) {
      place(root);
      refocus(root);
    });
  } else {
    document.addEventListener("DOMContentLoaded", function () { place(document); });
  }
})();
