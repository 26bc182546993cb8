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
