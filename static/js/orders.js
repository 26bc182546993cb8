// The Orders panel's pick on the board (issue 33): an order that names a place (Catan's "Build
// a road at an edge") is set by picking the place on the board, as the knight's hex is, on a
// phone too. The panel's list names every place the order may take (data-x, data-y: where it
// lies, in percent of the board); "Pick it on the board" lights those places over the board as
// buttons, and the one picked is chosen in the list. Nothing is played or saved: the player
// still adds the order with its own button. Without this file, or without a board, the list
// serves alone. Loaded once with the board (templates/games/catan_ships/board.html).
(function () {
  "use strict";
  if (window.tradewindsOrdersPick) return;
  window.tradewindsOrdersPick = true;

  var list = null;   // the panel's list being picked for, while the places are lit

  function board() { return document.querySelector("#cs-live .cs-board"); }

  function clear() {
    document.querySelectorAll(".orders-picks").forEach(function (el) { el.remove(); });
    var b = board();
    if (!b || !b.classList.contains("orders-picking")) return;
    b.classList.remove("orders-picking");
    // The board was lit and zoomable (zoomed in on a phone) for the pick only: as it was.
    var was = (b.getAttribute("data-orders-was") || "").split(" ");
    ["lit", "zoomable"].forEach(function (c) { if (was.indexOf(c) < 0) b.classList.remove(c); });
    b.removeAttribute("data-orders-was");
  }

  function light(focus) {
    clear();
    var b = board();
    if (!list || !document.contains(list) || !b) { list = null; return; }
    var layer = document.createElement("div");
    layer.className = "cs-spots placed orders-picks";
    layer.setAttribute("role", "group");
    layer.setAttribute("aria-label", list.getAttribute("data-pick-hint"));
    Array.prototype.forEach.call(list.options, function (option) {
      if (!option.value) return;
      var spot = document.createElement("button");
      spot.type = "button";
      spot.className = "cs-spot k-edge orders-pick-spot" + (option.selected ? " cs-picked" : "");
      spot.style.left = option.getAttribute("data-x") + "%";
      spot.style.top = option.getAttribute("data-y") + "%";
      spot.value = option.value;
      spot.title = option.textContent;
      // The pick goes back to the list it fills, which is brought into view (done, below).
      if (list.id) spot.setAttribute("data-shows", "#" + list.id);
      var words = document.createElement("span");
      words.textContent = option.textContent;
      spot.appendChild(words);
      layer.appendChild(spot);
    });
    b.appendChild(layer);
    b.setAttribute("data-orders-was", ["lit", "zoomable"].filter(function (c) { return b.classList.contains(c); }).join(" "));
    // Lit and zoomable as for a move: on a phone the board zooms in, every place a finger wide.
    b.classList.add("orders-picking", "lit", "zoomable");
    if (focus) {
      b.scrollIntoView({block: "center"});
      var first = layer.querySelector(".cs-picked") || layer.querySelector("button");
      // A zoomed board scrolls in its frame: bring the first place into the frame's middle.
      var frame = b.parentNode;
      if (first && frame.scrollWidth > frame.clientWidth + 1) {
        frame.scrollLeft = first.offsetLeft - frame.clientWidth / 2;
        frame.scrollTop = first.offsetTop - frame.clientHeight / 2;
      }
      if (first) first.focus({preventScroll: true});
    }
  }

  function done(value) {
    var chosen = list;
    list = null;
    clear();
    if (!chosen || !document.contains(chosen)) return;
    if (value !== null) {
      chosen.value = value;
      chosen.dispatchEvent(new Event("change", {bubbles: true}));
    }
    chosen.scrollIntoView({block: "center"});
    chosen.focus({preventScroll: true});
  }

  document.addEventListener("click", function (event) {
    var pick = event.target.closest && event.target.closest("#orders .orders-pick");
    if (pick) {
      var details = pick.closest("details");
      if (details) details.open = true;
      list = pick.closest(".orders-place").querySelector(".orders-place-list");
      light(true);
      return;
    }
    var spot = event.target.closest && event.target.closest(".orders-picks .orders-pick-spot");
    if (spot) {
      event.preventDefault();
      done(spot.value);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && list) done(null);
  });

  // The kind's form closed while its places are lit (its heading pressed): the pick is given up,
  // and the board is as it was. A place pressed after that chose in a list nobody saw.
  document.addEventListener("toggle", function (event) {
    var form = event.target;
    if (list && form.tagName === "DETAILS" && !form.open && form.contains(list)) {
      list = null;
      clear();
    }
  }, true);

  function offer(root) {
    // The pick is offered where the board is on the page.
    if (!board()) return;
    (root.querySelectorAll ? root : document).querySelectorAll(".orders-pick[hidden]").forEach(function (b) {
      b.hidden = false;
    });
  }

  if (window.htmx) {
    window.htmx.onLoad(function (root) {
      offer(document);
      // The live part is replaced after every move and update: light the places again on the
      // new board while the player is picking (or let go if the panel itself was replaced).
      if (list) light(false);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { offer(document); });
})();
