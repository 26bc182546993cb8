// Pirater on the page. Every form works without this file: the move list offers each legal
// move as a button (die, ship, direction). This file adds the die and ship pickers, which
// narrow the list to that die and ship's directions and light their squares on the board;
// a click on one of your ships picks it, and a click on a lit square plays that move (by
// clicking the matching button, so htmx posts it as usual; on a phone's small squares only the
// pickers and buttons are tapped: pirater.css). It runs on each new live part
// (htmx.onLoad) and keeps no state outside it. Its words come from the page (data-* attributes
// written in the reader's language), so it holds no English of its own.
(function () {
  "use strict";

  function picked(root, name) {
    var input = root.querySelector('input[name="' + name + '"]:checked');
    return input ? Number(input.value) : null;
  }

  function square(move) {
    return move.to[0] + "-" + move.to[1];
  }

  // A target's square from where it is drawn (the inverse of Grid.box in games/pirater/pages.py):
  // rows are 10 units high after the half-high row 0; the last row's strait halves are row 0's.
  function drawnSquare(use, last) {
    var x = Number(use.getAttribute("x")), y = Number(use.getAttribute("y"));
    var row = y === 0 ? 0 : (y - 5) / 10 + 1;
    return (row === last ? 0 : row) + "-" + x / 10;
  }

  function setUp(live) {
    var list = live.querySelector(".pt-list");
    if (!list || list.dataset.ready) return;
    list.dataset.ready = "1";
    var choose = live.querySelector(".pt-choose");
    var hint = live.querySelector(".pt-hint");
    var split = choose.querySelector('input[name="pt-split"]');
    var pieces = live.querySelector(".pt-pieces");
    var last = Number(pieces.getAttribute("data-last"));
    var targets = Array.prototype.slice.call(pieces.querySelectorAll(".pt-ts > use"));
    targets.forEach(function (t) { t.setAttribute("data-sq", drawnSquare(t, last)); });
    var moves = [];
    list.querySelectorAll("button[name=action]").forEach(function (button) {
      try {
        var move = JSON.parse(button.value);
        move.button = button;
        move.group = button.parentNode;
        moves.push(move);
      } catch (e) { /* not a move */ }
    });
    if (!moves.length) return;

    function choice() {
      return {die: picked(choose, "pt-die"), ship: picked(choose, "pt-ship"), split: !!(split && split.checked)};
    }

    function fits(move, chosen) {
      return move.die === chosen.die && move.ship === chosen.ship && !!move.split === chosen.split;
    }

    function check(name, value) {
      var input = choose.querySelector('input[name="' + name + '"][value="' + value + '"]');
      if (input) input.checked = true;
    }

    // Keep the pickers on a die and ship that can move together: when the one just changed
    // rules the other out, move the other to the first that fits.
    function agree(changed) {
      var chosen = choice();
      if (moves.some(function (m) { return fits(m, chosen); })) return;
      var other = moves.filter(function (m) {
        return (changed === "pt-ship" ? m.ship === chosen.ship : m.die === chosen.die) && !!m.split === chosen.split;
      })[0] || moves.filter(function (m) { return !!m.split === chosen.split; })[0] || moves[0];
      if (split) split.checked = !!other.split;
      check("pt-die", other.die);
      check("pt-ship", other.ship);
    }

    function say(text) {
      if (!hint) return;
      hint.textContent = text;
      hint.hidden = !text;
    }

    function update() {
      var chosen = choice(), lit = {};
      moves.forEach(function (move) {
        if (fits(move, chosen)) lit[square(move)] = true;
      });
      moves.forEach(function (move) {
        move.group.hidden = !fits(moves.filter(function (m) { return m.group === move.group; })[0], chosen);
      });
      targets.forEach(function (target) {
        target.classList.toggle("off", !lit[target.getAttribute("data-sq")]);
      });
      live.querySelectorAll(".pt-fleet [data-ships]").forEach(function (ship) {
        var ids = ship.getAttribute("data-ships").split(" ").map(Number);
        ship.classList.toggle("sel", ids.indexOf(chosen.ship) >= 0);
      });
      say("");
    }

    function play(sq) {
      var chosen = choice();
      var here = moves.filter(function (m) { return square(m) === sq; });
      var best = here.filter(function (m) { return fits(m, chosen); });
      if (best.length) here = best;
      if (here.length === 1) {
        here[0].button.click();
      } else if (here.length > 1) {
        say(hint ? hint.getAttribute("data-several") : "");
      }
    }

    choose.querySelectorAll(".pt-pick").forEach(function (fieldset) { fieldset.hidden = false; });
    choose.addEventListener("change", function (event) {
      agree(event.target.name);
      update();
    });
    pieces.addEventListener("click", function (event) {
      var ship = event.target.closest(".pt-fleet.movable [data-ships]");
      var target = event.target.closest(".pt-ts > use");
      if (ship) {
        var ids = ship.getAttribute("data-ships").split(" ");
        for (var i = 0; i < ids.length; i++) {
          if (choose.querySelector('input[name="pt-ship"][value="' + ids[i] + '"]')) {
            check("pt-ship", ids[i]);
            agree("pt-ship");
            update();
            return;
          }
        }
      } else if (target) {
        play(target.getAttribute("data-sq"));
      }
    });
    // Pointing at a move shows where it ends.
    moves.forEach(function (move) {
      function peek(on) {
        return function () {
          pieces.querySelectorAll('.pt-ts > [data-sq="' + square(move) + '"]').forEach(function (t) {
            t.classList.toggle("peek", on);
          });
        };
      }
      move.button.addEventListener("mouseenter", peek(true));
      move.button.addEventListener("mouseleave", peek(false));
      move.button.addEventListener("focus", peek(true));
      move.button.addEventListener("blur", peek(false));
    });
    agree("pt-die");
    update();
  }

  // Keyboard focus across a swap. A move replaces the whole live part, and with it the button
  // that had focus: the browser then drops focus to <body>, many Tabs from the next move. When
  // focus was inside the old live part, put it on the next sensible control of the new one:
  // Roll, else the die picker (or the first move), else a port or load button, else the panel
  // itself (the region acted on; it says whose turn it is now).
  // Only a keyboard player is scrolled to the control (site.js tells who): a tap or click leaves
  // the page put.
  var focusWasInLive = false;
  document.addEventListener("focusin", function (event) {
    focusWasInLive = !!(event.target.closest && event.target.closest("#pt-live"));
  });

  function visible(el) {
    return el && !el.hidden && !el.closest("[hidden]") && el.getClientRects().length > 0;
  }

  function nextControl(live) {
    var picks = [".pt-roll button", ".pt-pick input[name=pt-die]:checked", ".pt-list p:not([hidden]) button",
                 ".pt-ports button", ".pt-load button"];
    for (var i = 0; i < picks.length; i++) {
      var el = live.querySelector(picks[i]);
      if (visible(el)) return el;
    }
    return live.querySelector(".pt-panel");
  }

  function keepFocus(live) {
    var lost = !document.activeElement || document.activeElement === document.body;
    if (!focusWasInLive || !lost) return;
    var el = nextControl(live);
    if (!el) return;
    window.tradewindsLive.focus(el);
  }

  function start(root) {
    var live = root && root.id === "pt-live" ? root : root && root.querySelector && root.querySelector("#pt-live");
    if (live) {
      setUp(live);
      keepFocus(live);
    }
  }

  // The board enlarged, for a phone: copies of the board and of the pieces as they stand, without
  // their ids (the page's own hold the symbols both use), in a dialog whose frame scrolls. A new
  // live part while it is open redraws the pieces in it and leaves the frame where it was.
  function zoomCopy(svg, cls) {
    var copy = svg.cloneNode(true);
    copy.querySelectorAll("[id], defs").forEach(function (el) {
      if (el.tagName.toLowerCase() === "defs") el.remove(); else el.removeAttribute("id");
    });
    ["id", "aria-labelledby", "role"].forEach(function (name) { copy.removeAttribute(name); });
    copy.setAttribute("aria-hidden", "true");
    copy.classList.add(cls);
    return copy;
  }

  function zoomPieces(dialog) {
    var board = dialog.querySelector(".pt-zoom-board");
    var pieces = document.querySelector("#match-live .pt-pieces, .replay-board .pt-pieces");
    var old = board.querySelector(".pt-zoom-pieces");
    if (old) old.remove();
    if (pieces) board.appendChild(zoomCopy(pieces, "pt-zoom-pieces"));
  }

  function setUpZoom() {
    var wrap = document.getElementById("pt-board");
    var dialog = wrap && wrap.querySelector(".pt-zoom");
    if (!dialog || !dialog.showModal || dialog.dataset.ready) return;
    dialog.dataset.ready = "1";
    var button = wrap.querySelector(".pt-enlarge"), frame = dialog.querySelector(".pt-zoom-frame");
    button.closest(".pt-enlarge-line").hidden = false;
    button.addEventListener("click", function () {
      var board = dialog.querySelector(".pt-zoom-board");
      if (!board.querySelector(".pt-board")) board.appendChild(zoomCopy(wrap.querySelector(".pt-board"), "pt-zoom-sea"));
      zoomPieces(dialog);
      dialog.showModal();
      frame.scrollLeft = (frame.scrollWidth - frame.clientWidth) / 2;
    });
    dialog.querySelector(".pt-zoom-close").addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("close", function () { button.focus({preventScroll: true}); });
    function redraw() { if (dialog.open) zoomPieces(dialog); }
    document.addEventListener("htmx:afterSettle", redraw);
    document.addEventListener("htmx:wsAfterMessage", redraw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpZoom);
  } else {
    setUpZoom();
  }

  if (window.htmx) {
    htmx.onLoad(start);
  } else {
    document.addEventListener("DOMContentLoaded", function () { start(document); });
  }
})();
