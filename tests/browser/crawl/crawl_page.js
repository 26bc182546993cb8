// The crawl's eyes in the page, added to every document of its browser contexts before the
// page's own scripts (crawl_support.py). It counts htmx's requests and swaps, so the crawl waits
// for them to finish instead of sleeping, and offers the checks one step makes, run in one pass:
// what the page is (scroll, width, focus, text), the targets a finger or a mouse can hit, their
// size and what covers them, and the controls a step may act on.
(() => {
  "use strict";
  const state = window.__crawl = {pending: 0, wsOpen: false};
  // Requests in flight, counted at the XHR itself (htmx's own events are dispatched on the
  // element that asked, which a swap may already have taken out of the page). "loadend" comes
  // after htmx has handled the answer and swapped it in.
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    state.pending++;
    this.addEventListener("loadend", () => { state.pending = Math.max(0, state.pending - 1); });
    return send.apply(this, arguments);
  };
  // Clicks the page received (a tap's click comes from the browser after the touch ends: the
  // crawl waits for it before it asks what the tap did).
  state.clicks = 0;
  // What the last click landed on says, when it brings another part into view on purpose
  // (data-shows): a finger's tap is carried to a link near it (Chromium's touch adjustment: a
  // ship beside the point tapped on Fuldrigger's map opens its sail form, further down).
  state.shows = null;
  // A form the browser held back for a field left empty or wrong (its own validation): the
  // browser brings the first such field into view and focuses it, whatever the button says it
  // would show; that field is marked, and the step is judged by it.
  state.heldBack = false;
  state.forgetHeldBack = () => {
    state.heldBack = false;
    document.querySelectorAll("[data-crawl-held]").forEach((f) => f.removeAttribute("data-crawl-held"));
  };
  // Where the page stood when the step's press landed, and whether a change had come since the
  // crawl looked at the page (markScreen): the control it moved was scrolled to by Playwright, as
  // a player scrolls to find it again.
  state.pressY = null;
  state.changedBeforePress = false;
  document.addEventListener("click", (e) => {
    state.clicks++;
    if (state.pressY === null) {
      state.pressY = window.scrollY;
      state.changedBeforePress = version() !== state.markedVersion;
    }
    const el = e.target && e.target.closest ? e.target.closest("[data-shows]") : null;
    state.shows = el ? el.getAttribute("data-shows") : null;
    // And the spot on a board it landed on, if any, as the crawl names controls.
    const hit = e.target && e.target.closest ? e.target.closest("a[href], button, summary, [role=button]") : null;
    state.landed = hit && (hit.closest("svg") || hit.matches(".cs-spot")) ? describe(hit) : null;
    state.forgetHeldBack();
  }, true);
  document.addEventListener("invalid", (e) => {
    if (!state.heldBack && e.target && e.target.setAttribute) {
      state.heldBack = true;
      e.target.setAttribute("data-crawl-held", "");
    }
  }, true);
  document.addEventListener("htmx:wsOpen", () => { state.wsOpen = true; });
  document.addEventListener("htmx:wsClose", () => { state.wsOpen = false; });
  // Idle: nothing in flight, nothing swapping or settling (htmx marks those with its classes;
  // the games' scripts put the focus back when the settling ends).
  state.idle = () => state.pending === 0 && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling");

  const INTERACTIVE = "a[href], button, summary, input:not([type=hidden]), select, textarea, " +
    "[role=button], [role=link], [tabindex]:not([tabindex='-1'])";
  const MIN = 24;

  function describe(el) {
    if (!el) return "nothing";
    if (el === document.body) return "<body>";
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    const cls = typeof el.className === "string" ? el.className : (el.getAttribute("class") || "");
    if (cls.trim()) s += "." + cls.trim().split(/\s+/).slice(0, 3).join(".");
    // A drawn target says where it is drawn: its data (a square, a destination) or its group.
    if (el instanceof SVGElement) {
      const data = [...el.attributes].find((a) => a.name.startsWith("data-") && a.name !== "data-crawl");
      if (data) s += "[" + data.name + "=" + data.value + "]";
      const group = el.parentElement && el.parentElement.getAttribute("class");
      if (group) s = "." + group.split(/\s+/)[0] + " > " + s;
    }
    const words = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("title") ||
                   (el.querySelector && el.querySelector("title") ? el.querySelector("title").textContent : "") ||
                   el.getAttribute("value") || "").replace(/\s+/g, " ").trim();
    if (words) s += ' "' + words.slice(0, 60) + '"';
    return s;
  }

  // A CSS path from the nearest ancestor with an id, to find the same place after a swap.
  function path(el) {
    const parts = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (e.id) { parts.unshift("#" + CSS.escape(e.id)); break; }
      const tag = e.tagName.toLowerCase();
      let n = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) n++;
      parts.unshift(tag + ":nth-of-type(" + n + ")");
    }
    return parts.join(" > ");
  }

  // Fixed or sticky boxes (a header) do not cover what scrolls under them for good.
  function pinned(el) {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      const p = getComputedStyle(e).position;
      if (p === "fixed" || p === "sticky") return true;
    }
    return false;
  }

  // A menu the player opened (an open <details> whose list floats over the page, as Catan's
  // board spots offer theirs): it covers what lies under it until it is closed (a tap elsewhere
  // or Escape), as any open menu does; what it covers is not out of a player's reach.
  function openMenu(el) {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      if (getComputedStyle(e).position === "absolute") {
        const menu = e.parentElement && e.parentElement.closest("details[open]");
        if (menu) return menu;
      }
    }
    return null;
  }

  // The part of an element one can see: its box clipped by every scrolling or clipping
  // ancestor; null when nothing of it shows.
  function seen(el) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return null;
    // Inside a closed <details> a box keeps its size but is not drawn (content-visibility).
    if (el.checkVisibility && !el.checkVisibility({contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true})) return null;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.visibility === "collapse" || st.pointerEvents === "none" && !el.matches(INTERACTIVE)) return null;
    let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (Number(s.opacity) === 0) return null;
      if (a !== document.body && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
        const ar = a.getBoundingClientRect();
        box = {l: Math.max(box.l, ar.left), t: Math.max(box.t, ar.top), r: Math.min(box.r, ar.right), b: Math.min(box.b, ar.bottom)};
        if (box.r - box.l <= 0 || box.b - box.t <= 0) return null;
      }
    }
    return {rect: r, box: box};
  }

  // A spot drawn in a map one pans and zooms (a lit square, a ship): the list beside the map
  // does the same (WCAG 2.5.8's equivalent control), and zoomed out the spots may touch; they are
  // acted on where a tap reaches them, but their size and overlap are the game's own tests'.
  function drawnInPane(el) {
    if (!el.closest("svg")) return false;
    for (let a = el.parentElement; a; a = a.parentElement) if (pane(a)) return true;
    return false;
  }

  function hittable(t) {
    const x = (t.box.l + t.box.r) / 2, y = (t.box.t + t.box.b) / 2;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === t.el || t.el.contains(hit));
  }

  function pane(el) {
    return el.matches("[tabindex]") && !el.matches("a[href], button, summary, input, select, textarea, [role=button], [role=link]") &&
      getComputedStyle(el).cursor !== "pointer";
  }

  function disabled(el) {
    return el.matches(":disabled") || el.getAttribute("aria-disabled") === "true" || !!el.closest("[inert]");
  }

  // Everything a pointer can hit: the interactive elements, and what the page's scripts make
  // clickable (drawn with a pointer cursor: board squares and ships), the outermost of each.
  // A check box or radio inside a label is hit through its label.
  function targets() {
    const found = new Set();
    document.querySelectorAll(INTERACTIVE).forEach((el) => found.add(el));
    document.querySelectorAll("body *").forEach((el) => {
      if (getComputedStyle(el).cursor !== "pointer") return;
      const parent = el.parentElement;
      if (parent && getComputedStyle(parent).cursor === "pointer") return;
      found.add(el);
    });
    const out = [];
    const taken = new Set();
    found.forEach((el) => {
      if (disabled(el)) return;
      let t = el;
      if (el.matches("input[type=checkbox], input[type=radio]") && el.closest("label")) t = el.closest("label");
      if (taken.has(t)) return;
      // Inside another target (a span in a button): the outer one is the target.
      // A box that is focusable only to be scrolled or panned by keys (a map) is not: what is
      // drawn in it is tapped on its own.
      for (let a = t.parentElement; a; a = a.parentElement) if (found.has(a) && a !== t && !a.matches("label, form") && !pane(a)) return;
      const s = seen(t);
      if (!s) return;
      taken.add(t);
      out.push({el: t, control: el, rect: s.rect, box: s.box, drawn: drawnInPane(t)});
    });
    return out;
  }

  // WCAG 2.2 2.5.8: a link inside a sentence is exempt (its size is the line's).
  function inline(el) {
    if (getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
    if (!block) return false;
    const own = (el.textContent || "").trim().length;
    return (block.innerText || "").trim().length > own + 2;
  }

  function gap(cx, cy, r) {  // from a point to the nearest point of a rectangle
    const dx = Math.max(r.left - cx, 0, cx - r.right), dy = Math.max(r.top - cy, 0, cy - r.bottom);
    return Math.hypot(dx, dy);
  }

  function checkTargets(sizes) {
    const all = targets();
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const small = [], covered = [];
    const centre = (t) => [(t.rect.left + t.rect.right) / 2, (t.rect.top + t.rect.bottom) / 2];
    const under = (t) => t.rect.width < MIN - 0.01 || t.rect.height < MIN - 0.01;
    all.forEach((t) => {
      if (t.drawn) return;
      if (sizes && under(t) && !inline(t.el)) {
        const [cx, cy] = centre(t);
        let near = null;
        for (const o of all) {
          if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) continue;
          const [ox, oy] = centre(o);
          if (gap(cx, cy, o.rect) < MIN / 2 || (under(o) && Math.hypot(ox - cx, oy - cy) < MIN)) { near = o; break; }
        }
        if (near) small.push({target: describe(t.el), size: [Math.round(t.rect.width * 10) / 10, Math.round(t.rect.height * 10) / 10],
                              near: describe(near.el), at: [Math.round(cx), Math.round(cy)]});
      }
      // What a tap at the centre of its visible part would hit; a link that wraps over lines is
      // tapped on one of its lines (the centre of its whole box may be the paragraph between).
      let box = t.box;
      const lines = t.el.getClientRects();
      if (lines.length > 1) {
        const line = Array.from(lines).reduce((a, c) => (c.width * c.height > a.width * a.height ? c : a));
        box = {l: Math.max(line.left, t.box.l), t: Math.max(line.top, t.box.t), r: Math.min(line.right, t.box.r), b: Math.min(line.bottom, t.box.b)};
      }
      const b = {l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, vw), b: Math.min(box.b, vh)};
      // A sliver at the screen's edge (a summary scrolled all but 2 px away) is no target: its
      // middle rounds onto its neighbour.
      if (b.r - b.l < 4 || b.b - b.t < 4) return;
      const x = (b.l + b.r) / 2, y = (b.t + b.b) / 2;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === t.el || t.el.contains(hit) || (t.control !== t.el && hit === t.control)) return;
      if (pinned(hit) && !pinned(t.el)) return;
      const menu = openMenu(hit);
      if (menu && !menu.contains(t.el)) return;
      covered.push({target: describe(t.el), by: describe(hit), at: [Math.round(x), Math.round(y)]});
    });
    return {small: small, covered: covered, count: all.length};
  }

  function visibleText() {
    const parts = [document.body.innerText];
    document.querySelectorAll("select").forEach((s) => {
      if (seen(s)) s.querySelectorAll("option").forEach((o) => parts.push(o.textContent));
    });
    return parts.join("\n");
  }

  function names() {
    const out = [];
    document.querySelectorAll("svg text").forEach((t) => { const w = t.textContent.trim(); if (w) out.push(w); });
    // What the page marks as not to be translated (translate="no"): names, such as the places
    // of the time zones.
    document.querySelectorAll("[translate=no], [translate=no] option").forEach((t) => {
      const w = t.textContent.trim(); if (w && w.length < 80) out.push(w);
    });
    return out;
  }

  // Where the focus is: on what (or the page's body), and where on the screen, so that the
  // checks of a step judge from this one read whether it shows, and whether it did before the
  // page's last move.
  function focusNow() {
    const a = document.activeElement;
    const r = a && a !== document.body ? a.getBoundingClientRect() : null;
    return {desc: describe(a), body: !a || a === document.body || a === document.documentElement,
            shown: !!(r && r.width > 0), top: r ? r.top : 0, bottom: r ? r.bottom : 0, screen: innerHeight};
  }

  // The controls a step may act on, in the board and the panel (not the chat, not links that
  // leave the page), each marked so the crawl can find it again.
  function controls(scope) {
    document.querySelectorAll("[data-crawl]").forEach((el) => el.removeAttribute("data-crawl"));
    // While a modal dialog is open (Pirater's enlarged board) the rest of the page is inert: a
    // player can reach only what is in the dialog.
    const root = document.querySelector("dialog:modal") || document.querySelector(scope) || document.body;
    const out = [];
    targets().forEach((t) => {
      const el = t.control;
      if (!root.contains(el) || el.closest("#match-chat, .chat")) return;
      if (t.drawn && !hittable(t)) return;   // under another spot here: a finger cannot reach it
      if (el.matches("a[href]") && !el.hasAttribute("hx-get") && !el.hasAttribute("hx-post") &&
          !el.closest("svg") && !/^[?#]/.test(el.getAttribute("href"))) return;
      let kind = "press", key = "Enter", weight = 1;
      if (el.matches("input[type=checkbox], input[type=radio]")) { kind = "press"; key = "Space"; }
      else if (el.matches("select")) kind = "select";
      else if (el.matches("input, textarea")) kind = "fill";
      else if (el.matches("button[name=action], button:not([type=button]), .cs-spot") || getComputedStyle(el).cursor === "pointer" && !el.matches("summary, [data-zoom]")) weight = 4;
      const n = out.length;
      el.setAttribute("data-crawl", String(n));
      const shown = t.box;
      // Left out of the Tab order on purpose (tabindex="-1": the ships on Fuldrigger's map, which
      // the fleet's buttons stand for), a control is no keyboard player's to press.
      const focusable = el.getAttribute("tabindex") !== "-1" &&
        (el.tabIndex >= 0 || el.matches("a[href], button, summary, input, select, textarea"));
      out.push({n: n, kind: kind, key: key, weight: weight, focusable: focusable && !el.closest("svg[aria-hidden=true]"),
                desc: describe(el), region: region(el), label: el.matches("input") && !seen(el) && !!el.closest("label"),
                min: el.getAttribute("min"), max: el.getAttribute("max"), options: el.matches("select") ? el.options.length : 0,
                multiple: !!el.multiple, visibleTop: shown.t, visibleBottom: shown.b,
                spot: !!el.closest("svg") || el.matches(".cs-spot"), shows: el.getAttribute("data-shows")});
    });
    return out;
  }

  // The part of the page an action belongs to: its form, section, board or drawing.
  function region(el) {
    const r = el.parentElement && el.parentElement.closest("form, fieldset, section, svg, details, [id]");
    return r ? path(r) : "body";
  }

  // How much of a region (or, if it is gone, of its nearest surviving ancestor) is on screen.
  function inView(selector) {
    let sel = selector, el = null;
    while (sel) {
      el = document.querySelector(sel);
      if (el) break;
      const cut = sel.lastIndexOf(" > ");
      sel = cut > 0 ? sel.slice(0, cut) : "";
    }
    if (!el) return {found: null};
    const r = el.getBoundingClientRect(), vh = window.innerHeight;
    const shown = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    return {found: sel, shown: shown, height: r.height, top: r.top, desc: describe(el)};
  }

  // Where the parts of the page an action lies in sit on the screen (its sections, inner to
  // outer, as the games' scripts keep them): a page that scrolls so that one of them stays where
  // it was has not moved for the player, whatever grew or shrank above it.
  function anchor(el) {
    const parts = [];
    // A row that stays through the change, known by its key (a Fuldrigger ship's: data-row), is
    // the finest part: the page keeps it in place while the list around it grows or shrinks.
    const row = el.closest("[data-row]");
    if (row) {
      const kind = `[data-row="${CSS.escape(row.getAttribute("data-row"))}"]`;
      parts.push({kind: kind, index: 0, top: row.getBoundingClientRect().top});
    }
    for (let s = el.closest("section[class]"); s; s = s.parentElement && s.parentElement.closest("section[class]")) {
      const kind = "section." + CSS.escape(s.classList[0]);
      parts.push({kind: kind, index: [...document.querySelectorAll(kind)].indexOf(s), top: s.getBoundingClientRect().top});
    }
    return parts;
  }
  // The innermost of those parts still on the page (null: none is): how far it has moved on the
  // screen, and how much of it shows below what is pinned to the screen's top (a phone's sticky
  // map), now and as it would without the page's last scroll of `dy` px. A page that scrolled to
  // bring back the part acted in, which the change would have hidden, has shown the player what
  // they acted on, not carried them away.
  function anchorNow(parts, dy) {
    for (const p of parts) {
      const el = document.querySelectorAll(p.kind)[p.index];
      if (!el) continue;
      const r = el.getBoundingClientRect(), vh = innerHeight;
      // What is pinned at the top of the screen above it, in its column (a desk's map pinned
      // beside the panels covers nothing of them).
      let cover = 0;
      const x = Math.min(Math.max((r.left + r.right) / 2, 1), innerWidth - 1);
      for (let e = document.elementFromPoint(x, 2); e && e !== document.documentElement; e = e.parentElement) {
        const pos = getComputedStyle(e).position;
        if (pos === "fixed" || pos === "sticky") { cover = Math.max(0, e.getBoundingClientRect().bottom); break; }
      }
      const show = (top, bottom) => Math.max(0, Math.min(bottom, vh) - Math.max(top, cover));
      return {moved: r.top - p.top, now: show(r.top, r.bottom), without: show(r.top + dy, r.bottom + dy), height: r.height};
    }
    return null;
  }

  // What the player is looking at (the element at the screen's middle, outside the live part,
  // which a change replaces whole, and not pinned to the screen), and where it sits: a page that
  // scrolled by itself so that it stays where it was (what lies below the live part, kept in
  // place while the part above it grew) has not moved under the player's eyes.
  let looked = null;
  function markScreen() {
    looked = null;
    state.markedVersion = version();
    state.pressY = null;
    state.changedBeforePress = false;
    let el = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    if (!el || el.closest("#match-live")) return false;
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      const pos = getComputedStyle(e).position;
      if (pos === "fixed" || pos === "sticky") return false;
    }
    looked = {el: el, top: el.getBoundingClientRect().top};
    return true;
  }
  function screenMoved() {   // once per mark: a later step's judgement marks its own
    const was = looked;
    looked = null;
    return was && was.el.isConnected ? was.el.getBoundingClientRect().top - was.top : null;
  }

  // The page's markup in numbers, to tell which part of it changed: the live part (which the
  // answers and the socket replace) and the rest.
  function hash(h) {
    let x = 0;
    for (let i = 0; i < h.length; i++) x = (x * 31 + h.charCodeAt(i)) | 0;
    return h.length + ":" + x;
  }
  function fingerprint() {
    // The marks of the last step's controls are the crawl's, not the page's.
    document.querySelectorAll("[data-crawl]").forEach((el) => el.removeAttribute("data-crawl"));
    const all = document.documentElement.outerHTML, live = document.querySelector("#match-live");
    const part = live ? live.outerHTML : "";
    return {rest: hash(part ? all.replace(part, "") : all) + ":" + window.innerWidth, live: hash(part)};
  }

  // The version of the match the page shows (the live part's).
  function version() {
    const live = document.querySelector("#match-live");
    return live ? Number(live.dataset.version) : null;
  }

  window.__crawlPage = {
    version: version,
    text: visibleText,
    fingerprint: fingerprint,
    describe: describe,
    page: (sizes) => ({
      scrollY: window.scrollY, scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth, focus: focusNow(),
      text: visibleText(), names: names(), targets: checkTargets(sizes),
    }),
    controls: controls,
    inView: inView,
    anchor: anchor,
    anchorNow: anchorNow,
    markScreen: markScreen,
    screenMoved: screenMoved,
    focus: focusNow,
  };
})();
