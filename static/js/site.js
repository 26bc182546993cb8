// Live countdowns for every deadline on the page, including parts swapped in later by htmx.
// The words come from the counting element itself (data-days, data-hours, data-minutes,
// data-up), rendered in the reader's language; {d} {h} {m} {s} stand for the numbers.
(function () {
  function fill(pattern, numbers) {
    return pattern.replace(/\{([dhms])\}/g, function (_, unit) { return numbers[unit]; });
  }
  function left(el, ms) {
    if (ms <= 0) return el.getAttribute("data-up");
    var s = Math.floor(ms / 1000),
        n = {d: Math.floor(s / 86400), h: Math.floor(s % 86400 / 3600), m: Math.floor(s % 3600 / 60), s: s % 60};
    if (n.d) return fill(el.getAttribute("data-days"), n);
    if (n.h) return fill(el.getAttribute("data-hours"), n);
    return fill(el.getAttribute("data-minutes"), n);
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline][data-up]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("data-deadline"));
      if (!isNaN(at)) el.textContent = left(el, at - now);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();

// The browser's time zone: filled into the sign-up form, and offered on the profile when it
// differs from the one saved there (times are shown and read in the profile's zone).
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone) return;
  function setup() {
    document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
      if (!input.value) input.value = zone;
    });
    document.querySelectorAll("[data-zone-suggestion]").forEach(function (hint) {
      var select = hint.parentNode.querySelector("select");
      if (!select || select.value === zone || !select.querySelector('option[value="' + zone + '"]')) return;
      hint.querySelector("span").textContent = hint.getAttribute("data-zone-suggestion").replace("{zone}", zone);
      hint.hidden = false;
      hint.querySelector("button").addEventListener("click", function () {
        select.value = zone;
        hint.hidden = true;
        select.focus();
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();

// The new-match form: when another game is chosen, htmx swaps in that game's seats and
// options (the select asks with a "game-changed" event, sent only when the game really changed,
// so a field typed meanwhile is not replaced for nothing).
document.addEventListener("change", function (event) {
  var select = event.target.closest && event.target.closest("select[data-game-switch]");
  if (!select || select.value === select.getAttribute("data-shown") || !window.htmx) return;
  select.setAttribute("data-shown", select.value);
  window.htmx.trigger(select, "game-changed");
});

// Match sockets reconnect after a random wait of up to 0.5 s, doubling per failed try to at most
// 5 s ("full jitter", capped): when a server dies its viewers come back spread out, none later
// than a few seconds. htmx's own default doubles up to 64 s, so after a crash the last viewers
// waited minutes for live updates (issue 29).
if (window.htmx) {
  window.htmx.config.wsReconnectDelay = function (retries) {
    return Math.min(5000, 500 * Math.pow(2, retries)) * Math.random();
  };
}

// A match's socket sends its live part after every change, and once on connecting (the catch-up
// of whatever the page missed). A part the page already shows — the same version and revision,
// as the catch-up of a page that missed nothing, or the socket's copy of the answer to the
// viewer's own move — is not swapped in again: that would only wipe what the viewer has open or
// chosen (a knight's hexes, a menu, a picked ship) and move the focus. An older version is never
// swapped in. A change that keeps the version (a seat taken, a deadline moved) comes with a
// revision of its own and is shown.
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  var message = event.detail && event.detail.message;
  var live = document.getElementById("match-live");
  if (typeof message !== "string" || !live) return;
  var told = /id="match-live"[^>]*?data-version="(\d+)"(?:\s+data-revision="([^"]*)")?/.exec(message);
  if (!told) return;
  var shown = Number(live.getAttribute("data-version")), version = Number(told[1]);
  if (version < shown || (version === shown && (told[2] || "") === (live.getAttribute("data-revision") || ""))) {
    event.preventDefault();
  }
});

// The live part grows and shrinks with every change, and the browser's scroll anchoring is off
// for it (site.css): a change that came while the viewer was below it (at their orders, in the
// chat) carried what they were reading up or down the screen by the difference (a new order
// gone above the screen when the orders played the turn and the turn's buttons went). When none
// of the live part is on the screen, what lies below it keeps its place. Where the viewer is
// is judged where they put themselves: a change that shrank the live part in view and left the
// viewer below it (the socket's part, then the answer's, a form taller) is not a reason to hold
// at the next swap, or the page would drift by the difference every time. `coveredTop` is where
// the screen begins (a game's sticky map on a phone sets it); `away` tells a game's script that
// the last swap came while the viewer was below (then it brings nothing of the part into view).
// `byKeyboard`: the last input was a key; only then is focus moved by a swap scrolled to (a
// finger's or a mouse's page stays put).
window.tradewindsLive = {coveredTop: function () { return 0; }, away: false, byKeyboard: false};
document.addEventListener("keydown", function () { window.tradewindsLive.byKeyboard = true; }, true);
document.addEventListener("pointerdown", function () { window.tradewindsLive.byKeyboard = false; }, true);
(function () {
  var live = window.tradewindsLive, below = null;
  // Whether the viewer saw the live part at the last change, and where the page then stood (or
  // where `keep` put it): judged again only once the page stands elsewhere (the viewer scrolled).
  var sawLive = false, sawAt = null;

  function hold() {
    var part = document.getElementById("match-live"), top = live.coveredTop();
    below = null;
    live.away = false;
    if (!part) return;
    if (sawAt === null || Math.abs(window.scrollY - sawAt) > 1) sawLive = part.getBoundingClientRect().bottom > top;
    sawAt = window.scrollY;
    if (sawLive) return;   // the viewer sees the live part
    ["#orders", "#match-socket > .chat"].some(function (sel) {
      var el = document.querySelector(sel);
      if (!el || el.getBoundingClientRect().bottom <= top) return false;
      below = {sel: sel, top: el.getBoundingClientRect().top};
      live.away = true;
      return true;
    });
  }

  function keep() {
    var was = below, el = was && document.querySelector(was.sel);
    below = null;
    if (!el) return;
    var shift = el.getBoundingClientRect().top - was.top;
    if (Math.abs(shift) > 1) {
      window.scrollBy(0, shift);
      sawAt = window.scrollY;   // the page moved with what the viewer reads: they are where they were
    }
  }

  // Focus moved for the player by a swap (the control they used is gone): the page stays put, but
  // a keyboard player is shown where the focus went, or their next key acts on what they cannot
  // see; what lies below the live part is then not held where it was (the player went with the
  // focus), and where they are is judged afresh at the next change.
  live.focus = function (el) {
    el.focus({preventScroll: true});
    var box = el.getBoundingClientRect();
    if (live.byKeyboard && (box.top < 0 || box.bottom > window.innerHeight)) {
      below = null;
      sawAt = null;
      el.scrollIntoView({block: "nearest"});
    }
  };

  function isLive(evt) { return evt.detail.target && evt.detail.target.id === "match-live"; }
  document.addEventListener("htmx:wsBeforeMessage", hold);
  document.addEventListener("htmx:wsAfterMessage", keep);
  document.addEventListener("htmx:beforeSwap", function (evt) { if (isLive(evt)) hold(); });
  document.addEventListener("htmx:afterSwap", function (evt) { if (below && isLive(evt)) keep(); });
})();

// The Orders panel (templates/games/partials/orders.html) lies outside the live part, so that a
// push never wipes what its owner is typing. The live part says what the seat's panel offers
// now as a digest (data-orders: whether there are orders at all, the ships, the places); when it
// differs from the panel's own, the panel is fetched again — a panel that appears at the start,
// a ship list that fills — keeping the kinds opened and what was chosen or typed in them, and
// the focus (issue 33).
(function () {
  var asking = false, askedFor = null;

  function where(el) {
    var form = el.closest("details.orders-add");
    var kind = form && form.querySelector("input[name=kind]");
    var same = form ? Array.prototype.filter.call(form.querySelectorAll("[name]"), function (o) {
      return o.name === el.name;
    }) : [];
    return {kind: kind ? kind.value : null, name: el.name, nth: same.indexOf(el)};
  }

  function find(panel, at) {
    var kind = panel.querySelector('details.orders-add input[name=kind][value="' + CSS.escape(at.kind || "") + '"]');
    var form = kind && kind.closest("details.orders-add");
    if (!form) return null;
    var same = Array.prototype.filter.call(form.querySelectorAll("[name]"), function (o) { return o.name === at.name; });
    return same[at.nth] || null;
  }

  function kept(panel) {
    var fields = [], open = [], focused = null;
    panel.querySelectorAll("details.orders-add").forEach(function (d) {
      var kind = d.querySelector("input[name=kind]");
      if (d.open && kind) open.push(kind.value);
      d.querySelectorAll("select[name], input[name]:not([type=hidden])").forEach(function (el) {
        fields.push({at: where(el), value: el.value});
      });
    });
    if (panel.contains(document.activeElement) && document.activeElement.name) focused = where(document.activeElement);
    return {fields: fields, open: open, focused: focused};
  }

  function restore(panel, was) {
    panel.querySelectorAll("details.orders-add").forEach(function (d) {
      var kind = d.querySelector("input[name=kind]");
      if (kind && was.open.indexOf(kind.value) >= 0) d.open = true;
    });
    was.fields.forEach(function (f) {
      var el = find(panel, f.at);
      if (!el || !f.value) return;
      // A choice the panel no longer offers (a ship gone) is not kept.
      if (el.tagName === "SELECT" && !Array.prototype.some.call(el.options, function (o) { return o.value === f.value; })) return;
      el.value = f.value;
    });
    var focus = was.focused && find(panel, was.focused);
    if (focus) focus.focus();
  }

  // The panel can go while it holds the focus (the match over: there are no orders to give; the
  // player's own "Resume all orders" may play it out) or come back without the control that had
  // it. The focus would fall to the page's start: the final standings take it, else the panel's
  // title, else the live part's status, so what is read out is what happened and Tab goes on
  // from there. Scrolled to only for a keyboard player (a finger's page stays put).
  function focusAfterPanel() {
    if (document.activeElement && document.activeElement !== document.body) return;
    var el = document.querySelector("#match-live .standings h2") || document.querySelector("#orders h2") ||
             document.querySelector("#match-live .status-bar");
    if (!el) return;
    if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
    window.tradewindsLive.focus(el);
  }

  function refresh() {
    var live = document.getElementById("match-live"), panel = document.getElementById("orders");
    if (asking || !live || !panel || !window.htmx || !panel.getAttribute("data-orders-url")) return;
    var wanted = live.getAttribute("data-orders") || "";
    // Asked once per digest: the panel that came is what the server offers for it.
    if (wanted === (panel.getAttribute("data-orders") || "") || wanted === askedFor) return;
    asking = true;
    askedFor = wanted;
    fetch(panel.getAttribute("data-orders-url"), {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        asking = false;
        var now = document.getElementById("orders");
        if (html === null || !now) return;
        var was = kept(now), held = now.contains(document.activeElement);
        window.htmx.swap(now, html, {swapStyle: "outerHTML"});
        var fresh = document.getElementById("orders");
        if (fresh) restore(fresh, was);
        if (held) focusAfterPanel();
        refresh();  // the live part may have moved on while the panel was on its way
      }, function () { asking = false; });
  }

  // The player's own changes in the panel (pause, remove, move up or down, add) replace it as
  // well: the kinds they had opened stay open, with what was typed in them — but for the kind
  // just added, which closes (the new order takes the focus in the list). Else the panel, and
  // the page with it, shrank under the player's finger by the height of every open form.
  var own = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var panel = document.getElementById("orders");
    if (!panel || event.detail.target !== panel) return;
    own = kept(panel);
    own.focused = null;  // the panel that comes says where the focus goes (autofocus)
    if (panel.contains(document.activeElement)) {
      // An empty answer (the match over) removes the panel with no afterSwap to hear of it: the
      // swap runs once this event is handled, so a task later the panel is gone or replaced.
      setTimeout(function () { if (!document.getElementById("orders")) focusAfterPanel(); }, 0);
    }
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var added = source && source.closest && source.closest("details.orders-add");
    var kind = added && added.querySelector("input[name=kind]");
    if (kind && event.detail.xhr && event.detail.xhr.status < 400) {
      own.open = own.open.filter(function (k) { return k !== kind.value; });
      own.fields = own.fields.filter(function (f) { return f.at.kind !== kind.value; });
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    var panel = document.getElementById("orders"), was = own;
    own = null;
    if (!was || !panel) return;
    restore(panel, was);
    // The control used went with the swap; the panel says where the focus goes (autofocus: the
    // line moved or added, the pause). htmx would focus it as the browser does, centring it when
    // it lies partly off screen (a jump of half a screen under the pointer): here it is focused
    // first, and the page scrolled only as far as it takes to show it whole. What covers the top
    // of the screen (Fuldrigger's map on a phone) is the element's scroll margin: a line under
    // the map is not shown.
    var wanted = panel.querySelector("[autofocus]");
    if (!wanted) return;
    wanted.removeAttribute("autofocus");
    wanted.focus({preventScroll: true});
    var box = wanted.getBoundingClientRect(), style = getComputedStyle(wanted);
    var covered = parseFloat(style.scrollMarginTop) || 0, below = parseFloat(style.scrollMarginBottom) || 0;
    if (box.top < covered || box.bottom > window.innerHeight - below) wanted.scrollIntoView({block: "nearest"});
  });

  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
})();
