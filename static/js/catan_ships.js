// Catan with ships on the page. Every lit place on the board is a real button (or a small
// list of buttons) in a form that htmx posts; without this file they are a plain list under
// the board. This file lays them over the board at their places (data-x, data-y: percent of
// the board), keeps at most one place's list open, and closes it on Escape or a click
// elsewhere. On a touch screen a tap on a lit place picks it and a bar under the screen asks
// to confirm: a finger that lands on the neighbouring place commits nothing. It runs on each
// new live part (htmx.onLoad) and keeps no state outside it but where the player last acted.
(function () {
  "use strict";

  function place(root) {
    root.querySelectorAll(".cs-board").forEach(function (board) {
      var ratio = Number(board.getAttribute("data-ratio"));
      if (ratio) {
        board.style.setProperty("--ratio", ratio);
        // The frame keeps the whole board's shape, zoomed in or not: the panel under it does
        // not move when places light up (a Roll that brings the robber).
        board.parentNode.style.setProperty("--ratio", ratio);
      }
      // One hex radius in percent of the board's width: the lit places are sized by it.
      var units = Number(board.getAttribute("data-units"));
      if (units) {
        board.style.setProperty("--u", (100 / units) + "%");
        board.style.setProperty("--units", units);
      }
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
      board.classList.add("zoomable");
      // A board zoomed in (a phone, with lit places) scrolls in its own frame: bring the lit
      // places into the frame, never moving the page.
      var frame = board.parentNode;
      if (frame.classList.contains("cs-board-frame") && frame.scrollWidth > frame.clientWidth + 1) {
        var xs = [], ys = [];
        spots.querySelectorAll("[data-x]").forEach(function (el) {
          xs.push(Number(el.getAttribute("data-x")));
          ys.push(Number(el.getAttribute("data-y")));
        });
        var mid = function (v) { return (Math.min.apply(null, v) + Math.max.apply(null, v)) / 2 / 100; };
        frame.scrollLeft = mid(xs) * frame.scrollWidth - frame.clientWidth / 2;
        frame.scrollTop = mid(ys) * frame.scrollHeight - frame.clientHeight / 2;
      }
    });
  }

  // The live part is replaced after every action, by the action's answer and again by the
  // socket: focus inside it would fall back to the page's body. While the player is working in
  // it, put the focus back where it helps, without scrolling: the same button if it is still
  // offered (another load, another trade); after a move on the board, the next lit place (the
  // road beside the new settlement); where the board is the only place to act (the robber after
  // a 7), its first lit place; otherwise the turn line, which says what the move did (the dice)
  // and is not a button: one Enter too many ends nothing.
  var inLive = false, acted = null;
  document.addEventListener("focusin", function (event) {
    inLive = !!(event.target.closest && event.target.closest("#cs-live"));
  });
  // A form of the panel (a folding one: offers, counters, knights; or a plain one: discards,
  // the bank, the cards' choices), known again in the next live part by its tag and classes.
  function formKey(el) { return el.tagName + "." + el.className; }
  function panelForms(live) { return live.querySelectorAll("details.cs-form, form.cs-form"); }
  // What the player typed and ticked in it, to give back if the move is refused.
  function fieldsOf(holder) {
    var out = [];
    holder.querySelectorAll("input[name^='a.'], select[name^='a.']").forEach(function (f) {
      out.push({name: f.name, value: f.value, checked: f.checked});
    });
    return out;
  }
  function refill(holder, fields) {
    var seen = {};
    fields.forEach(function (f) {
      // Fields that share a name (the two year-of-plenty choices, the offer's "to" boxes) come
      // back in order, or by the value a box stands for.
      var all = holder.querySelectorAll("[name=\"" + CSS.escape(f.name) + "\"]");
      var i = seen[f.name] || 0;
      seen[f.name] = i + 1;
      all.forEach(function (el, n) {
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === f.value) el.checked = f.checked;
        } else if (n === i) {
          el.value = f.value;
        }
      });
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#cs-live button");
    if (!button) return;
    var form = button.closest("details.cs-form") || button.closest("form.cs-form");
    acted = {board: !!button.closest(".cs-spots"), value: button.name === "action" ? button.value : "",
             form: form ? formKey(form) : "", fields: form ? fieldsOf(form) : []};
  }, true);

  function refocus(root) {
    if (!inLive) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var live = root.id === "cs-live" ? root : root.querySelector("#cs-live");
    if (!live) return;
    var spot = live.querySelector(".cs-spots.placed > .cs-spot:not(.knight), .cs-spots.placed > .cs-spot-menu:not(.knight) > summary");
    var next = null;
    // A refused move (an offer of nothing, a discard of the wrong number): the answer shows why
    // at the top of the live part, maybe far above; open the form again with what the player
    // had entered and put the reason in it, by the fields to correct.
    var error = root.querySelector(".error[role=alert]");
    if (error && acted && acted.form) {
      var again = null;
      panelForms(live).forEach(function (d) { if (!again && formKey(d) === acted.form) again = d; });
      if (again) {
        if (again.tagName === "DETAILS") again.open = true;
        var form = again.tagName === "FORM" ? again : again.querySelector("form");
        form.prepend(error);
        refill(form, acted.fields || []);
        next = form.querySelector("input:not([type=hidden]), select, button");
      }
    }
    if (!next && acted && acted.value && !acted.board) {
      live.querySelectorAll(".cs-panel button[name=action]").forEach(function (b) {
        if (!next && b.value === acted.value) next = b;
      });
    }
    if (!next && spot && ((acted && acted.board) || !live.querySelector(".cs-panel button"))) next = spot;
    if (!next) next = live.querySelector(".cs-turn, .cs-winner");
    if (next) window.tradewindsLive.focus(next);
  }

  function closeMenus(except) {
    document.querySelectorAll(".cs-spot-menu[open]").forEach(function (d) {
      if (d !== except) d.removeAttribute("open");
    });
  }

  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (d.classList && d.classList.contains("cs-spot-menu") && d.open) {
      closeMenus(d);
      // In a zoomed board's frame the list may open past the frame's edge: bring it in.
      d.querySelector(".cs-menu").scrollIntoView({block: "nearest", inline: "nearest"});
    }
    // "Play a knight" open: the board shows the knight's hexes instead of the build spots.
    if (d.classList && d.classList.contains("cs-knight")) {
      var live = d.closest("#cs-live"), board = live && live.querySelector(".cs-board");
      if (!board || !board.querySelector(".cs-spots.placed > .knight")) return;
      board.classList.toggle("knight-on", d.open);
      if (!board.hasAttribute("data-lit")) board.setAttribute("data-lit", board.classList.contains("lit") ? "1" : "");
      board.classList.toggle("lit", d.open || board.getAttribute("data-lit") === "1");
      unpick();
      var first = board.querySelector(".cs-spots.placed > .knight");
      if (d.open) (first.tagName === "DETAILS" ? first.querySelector("summary") : first).focus();
    }
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".cs-spot-menu, .cs-confirm")) closeMenus(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector(".cs-spot-menu[open]");
    if (open) {
      open.removeAttribute("open");
      open.querySelector("summary").focus({preventScroll: true});
    }
    backToPick(confirmBar());
    unpick();
  });

  // Pick, then confirm, on a touch screen. A mouse or a keyboard commits at once: they do not
  // miss by a finger's width.
  var touched = 0, armed = null;
  document.addEventListener("pointerdown", function (event) {
    touched = event.pointerType === "touch" ? Date.now() : 0;
  }, true);

  function confirmBar() { return document.querySelector("#cs-live .cs-confirm"); }

  function unpick() {
    picked = null;
    document.querySelectorAll("#cs-live .cs-picked").forEach(function (el) { el.classList.remove("cs-picked"); });
    var bar = confirmBar();
    if (bar) bar.hidden = true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".cs-spots.placed button[name=action]");
    if (!button) return;
    if (button === armed) { armed = null; return; }   // confirmed: let the form post it
    var bar = confirmBar();
    // A click from Enter or Space has no detail (no pointer pressed): it commits at once.
    if (!bar || !touched || Date.now() - touched > 1500 || event.detail === 0) return;
    event.preventDefault();
    pick(button, bar);
  }, true);

  var picked = null;   // the picked place's action, kept while the live part is replaced

  // The page's end keeps room for the bar as tall as it is now (a long place's words take two or
  // three lines on a phone), so its last control, the footer's language chooser, can come out
  // from under it.
  function keepRoomFor(bar) {
    if (bar.roomKept || !window.ResizeObserver) return;
    bar.roomKept = true;
    new ResizeObserver(function () {
      if (bar.isConnected && !bar.hidden) document.documentElement.style.setProperty("--cs-confirm-room", bar.offsetHeight + "px");
    }).observe(bar);
  }

  function pick(button, bar) {
    unpick();
    keepRoomFor(bar);
    var menu = button.closest(".cs-spot-menu");
    (menu ? menu.querySelector("summary") : button).classList.add("cs-picked");
    bar.querySelector(".cs-confirm-what").textContent = button.getAttribute("title") || button.textContent;
    bar.hidden = false;
    bar.picked = button;
    picked = button.value;
    closeMenus(null);
    bar.querySelector(".cs-confirm-yes").focus({preventScroll: true});
  }

  // An update that arrives between the tap and the confirmation (the socket's copy of the last
  // move, another player's offer) keeps the pick if the place is still offered.
  function repick(root) {
    if (!picked) return;
    var again = null, bar = root.querySelector(".cs-confirm");
    root.querySelectorAll(".cs-spots.placed button[name=action]").forEach(function (b) {
      if (b.value === picked) again = b;
    });
    if (again && bar) pick(again, bar); else picked = null;
  }
  document.addEventListener("click", function (event) {
    var bar = event.target.closest && event.target.closest(".cs-confirm");
    if (!bar) return;
    if (event.target.closest(".cs-confirm-yes") && bar.picked && document.contains(bar.picked)) {
      armed = bar.picked;
      inLive = true;
      acted = {board: true, value: armed.value};
      armed.click();
    }
    if (event.target.closest(".cs-confirm-no")) backToPick(bar);
    if (event.target.closest(".cs-confirm-yes, .cs-confirm-no")) unpick();
  });

  // "Cancel" (or Escape) hides the bar that holds the focus: it goes back to the place picked,
  // not to the page's start.
  function backToPick(bar) {
    if (!bar || !bar.contains(document.activeElement) || !bar.picked || !document.contains(bar.picked)) return;
    var menu = bar.picked.closest(".cs-spot-menu");
    (menu ? menu.querySelector("summary") : bar.picked).focus({preventScroll: true});
  }

  if (window.htmx) {
    window.htmx.onLoad(function (root) {
      place(root);
      refocus(root);
      repick(root);
    });
  } else {
    document.addEventListener("DOMContentLoaded", function () { place(document); });
  }
})();
