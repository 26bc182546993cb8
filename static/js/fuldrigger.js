// Fuldrigger's map: zoom and pan (mouse, touch, keyboard, buttons), ships and squares chosen on
// the map, and the chosen route drawn. The live part (with the pieces' <svg>) is replaced after
// every change, so the zoom is kept here and in sessionStorage, and applied again on each load.
(function () {
  "use strict";
  // Once a page: run twice (a swap that brings the board again), every listener below would be
  // there twice, and one tap on a lit square would both choose it and sail there.
  if (window.fdMapScript) return;
  window.fdMapScript = true;
  var root = document.documentElement;
  root.classList.add("fd-js");
  var map = null;        // #fd-map, rendered once with the page
  var size = null;       // the whole chart: [width, height] in SVG units
  var view = null;       // {cx, cy, zoom}: the centre in SVG units and the zoom (1 = whole world)
  var positions = null;  // node id -> [x, y]
  var storeKey = "fd-view:" + location.pathname;
  var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;   // a finger, not a mouse

  // What the script says, in the page's language: board.html renders it on the map (data-say-*).
  // A word may come in two: "-touch" for a finger, "-mouse" for a mouse ("tap" or "click").
  function say(key) {
    var el = document.getElementById("fd-map");
    if (!el) return "";
    return el.getAttribute("data-say-" + key + (touch ? "-touch" : "-mouse")) || el.getAttribute("data-say-" + key) || "";
  }

  // SVG units per CSS pixel at zoom 1. A wide map shows the whole world; a narrow one (a phone)
  // is filled top to bottom and pans sideways: the whole world in 390 px would be a strip 140 px
  // tall in a box of 350, the rest empty ocean.
  // The width the sea is drawn in: the map's, but for the zoom buttons' strip at its right edge
  // (kept clear, so that no button covers a lit square or a ship).
  function paneWidth() {
    var sea = document.getElementById("fd-sea");
    return (sea && sea.clientWidth) || map.clientWidth;
  }

  function whole() {
    var w = paneWidth() || 1, h = map.clientHeight || 1;
    return w < 600 ? Math.min(size[0] / w, size[1] / h) : Math.max(size[0] / w, size[1] / h);
  }

  function scale() {     // SVG units per CSS pixel at the current zoom
    return whole() / view.zoom;
  }

  function clampView() {
    view.zoom = Math.min(16, Math.max(1, view.zoom));
    var s = scale(), w = paneWidth() * s, h = map.clientHeight * s;
    view.cx = w >= size[0] ? size[0] / 2 : Math.min(size[0] - w / 2, Math.max(w / 2, view.cx));
    view.cy = h >= size[1] ? size[1] / 2 : Math.min(size[1] - h / 2, Math.max(h / 2, view.cy));
  }

  function apply() {
    if (!map) return;
    clampView();
    var s = scale(), w = paneWidth() * s, h = map.clientHeight * s;
    var box = [view.cx - w / 2, view.cy - h / 2, w, h].map(function (n) { return n.toFixed(1); }).join(" ");
    document.querySelectorAll("#fd-sea, #fd-pieces").forEach(function (svg) { svg.setAttribute("viewBox", box); });
    sizes(s);
    declutter(s, view.cx - w / 2, view.cy - h / 2);
    try { sessionStorage.setItem(storeKey, JSON.stringify(view)); } catch (e) { /* private mode */ }
  }

  // ---- readable at every zoom ---------------------------------------------------------------
  // Symbols keep a size on screen between a least and a most (in CSS pixels) whatever the zoom:
  // the stylesheet scales them by these factors; ships are placed here (a row of them widens).
  function factor(natural, least, most, s) {   // the scale that shows `natural` units at least..most px
    return Math.min(Math.max(natural / s, least), most) * s / natural;
  }

  function sizes(s) {
    var css = root.style;
    css.setProperty("--fd-k", s.toFixed(4));
    css.setProperty("--fd-lit", touch ? 13 : 12.5);    // a lit square's radius: 24 px across at least (WCAG 2.2), a finger on a phone
    css.setProperty("--fd-haz", factor(6.4, 9, 20, s).toFixed(3));
    css.setProperty("--fd-port", factor(5.2, 7, 14, s).toFixed(3));
    css.setProperty("--fd-mark", factor(6, 12, 20, s).toFixed(3));
    var ship = factor(7, touch ? 22 : 16, 30, s);
    document.querySelectorAll("#fd-pieces .fd-ship").forEach(function (g) {
      var o = Number(g.getAttribute("data-o")) || 0;
      var x = Number(g.getAttribute("data-x")) - o * 5.5, y = Number(g.getAttribute("data-y"));
      g.setAttribute("transform", "translate(" + (x + o * 7.6 * ship).toFixed(1) + " " + y + ") scale(" + ship.toFixed(3) + ")");
    });
  }

  // Port names yield to one another by rank (home ports, then the busiest), and every name on
  // the player's business (his ships, where the chosen ship can go, where his cargo sells) first.
  var labels = null;

  function declutter(s, left, top) {
    if (!labels) {
      labels = Array.from(document.querySelectorAll("#fd-sea .fd-port")).map(function (g) {
        var text = g.querySelector("text");
        return {id: g.getAttribute("data-id"), text: text, rank: Number(g.getAttribute("data-r")) || 0,
                x: Number(text.getAttribute("x")), y: Number(text.getAttribute("y")),
                w: text.getComputedTextLength() / s};
      });
    }
    var busy = {};
    document.querySelectorAll("#fd-pieces .fd-buyer, #fd-pieces .fd-reach a").forEach(function (el) {
      busy[el.getAttribute("data-id") || el.getAttribute("data-to")] = true;
    });
    var w = paneWidth(), h = map.clientHeight, placed = [];
    labels.forEach(function (l) {   // every port's own mark is in the way of other names
      var x = (l.x - left) / s, y = (l.y - top) / s;
      l.sx = x; l.sy = y;
      placed.push([x - 5, y - 5, x + 5, y + 5, l]);
    });
    labels.slice().sort(function (a, b) {
      return (busy[a.id] ? -1000 : 0) + a.rank - ((busy[b.id] ? -1000 : 0) + b.rank);
    }).forEach(function (l) {
      var box = [l.sx + 7, l.sy - 8, l.sx + 9 + l.w, l.sy + 8];
      if (box[2] < 0 || box[0] > w || box[3] < 0 || box[1] > h) { l.text.classList.remove("fd-hide"); return; }
      var clash = placed.some(function (p) {
        return p[4] !== l && p[0] < box[2] && box[0] < p[2] && p[1] < box[3] && box[1] < p[3];
      });
      l.text.classList.toggle("fd-hide", clash);
      if (!clash) placed.push(box.concat([l]));
    });
  }

  // Fit a box (map units) in the map, no closer than `near` and no farther than `far` units a pixel.
  function fit(x, y, bw, bh, near, far) {
    // Room around the box: more above, for the ships (the zoom buttons have a strip of their own).
    var left = 30, right = 30, top = 44, bottom = 30;
    var w = Math.max(1, paneWidth() - left - right), h = Math.max(1, map.clientHeight - top - bottom);
    var k = Math.min(far, Math.max(near, Math.max(bw / w, bh / h)));
    view = {cx: x + bw / 2 + (right - left) / 2 * k, cy: y + bh / 2 - (top - bottom) / 2 * k, zoom: whole() / k};
    apply();
  }

  // Where the map opens: on the viewer's fleet (the live part says where), readable.
  function openOnFleet() {
    var focus = ((document.getElementById("fd-pieces") || {}).dataset || {}).focus;
    var box = (focus || "").split(/\s+/).map(Number);
    if (box.length === 4 && box.every(isFinite)) fit(box[0], box[1], box[2], box[3], 0.2, 1.0);
    else apply();
  }

  // A ship just chosen: every square it can reach is shown (zooming out only as far as needed).
  var shownChoice = null, movedFor = false;

  function showReach() {
    var pieces = document.getElementById("fd-pieces");
    var chosen = pieces && pieces.getAttribute("data-chosen");
    if (!chosen) {               // the ship has sailed (or the choice was dropped): back to the fleet
      if (movedFor) openOnFleet();
      shownChoice = null; movedFor = false;
      return;
    }
    if (chosen === shownChoice) return;
    shownChoice = chosen;
    var xs = [], ys = [], lit = [];
    pieces.querySelectorAll(".fd-reach circle, .fd-ship.fd-selected").forEach(function (el) {
      var x = Number(el.getAttribute("cx") || el.getAttribute("data-x")), y = Number(el.getAttribute("cy") || el.getAttribute("data-y"));
      if (isFinite(x) && isFinite(y)) { xs.push(x); ys.push(y); if (el.tagName.toLowerCase() === "circle") lit.push([x, y]); }
    });
    if (!xs.length) return;
    var ship = pieces.querySelector(".fd-ship.fd-selected");
    var sx = ship ? Number(ship.getAttribute("data-x")) : xs[0], sy = ship ? Number(ship.getAttribute("data-y")) : ys[0];
    // Across the date line: the squares on the other edge count from the ship's side.
    xs = xs.map(function (x) { return Math.abs(x - sx) > size[0] / 2 ? x + (x < sx ? size[0] : -size[0]) : x; });
    var x0 = Math.min.apply(null, xs), y0 = Math.min.apply(null, ys);
    var x1 = Math.max.apply(null, xs), y1 = Math.max.apply(null, ys);
    // Close enough that every lit square is a finger's width from the next (a tap must land on
    // the square meant), and far enough to show all the reach when that zoom allows it.
    var gap = Infinity;
    for (var i = 0; i < lit.length; i++) for (var j = i + 1; j < lit.length; j++) {
      gap = Math.min(gap, Math.hypot(lit[i][0] - lit[j][0], lit[i][1] - lit[j][1]));
    }
    // Ideally a finger apart (28 px on touch, 26 with a mouse); at the least far enough apart
    // that no lit square covers the middle of the next (its radius, 13 px, and a margin).
    var ideal = isFinite(gap) ? gap / (touch ? 28 : 26) : 1.2, least = isFinite(gap) ? gap / 16 : 1.2;
    var w = Math.max(1, paneWidth() - 100), h = Math.max(1, map.clientHeight - 74);
    var need = Math.max((x1 - x0) / w, (y1 - y0) / h);
    if (need <= Math.min(1.2, least)) {
      var far = Math.min(1.2, Math.max(need, ideal));
      fit(x0, y0, x1 - x0, y1 - y0, Math.min(0.15, far), far);
    } else {                       // all of it does not fit: centre on the ship, the rest a pan away
      fit(sx - 1, sy - 1, 2, 2, Math.min(0.15, ideal), Math.min(1.2, ideal));
    }
    movedFor = true;
  }

  // What the player chose (a square, else the ship), for zoom steps to centre on.
  function chosenPoint() {
    var el = document.querySelector("#fd-pieces .fd-reach circle.fd-on, #fd-pieces .fd-reach circle.fd-chosen");
    if (el) return [Number(el.getAttribute("cx")), Number(el.getAttribute("cy"))];
    el = document.querySelector("#fd-pieces .fd-ship.fd-selected");
    return el ? [Number(el.getAttribute("data-x")), Number(el.getAttribute("data-y"))] : null;
  }

  function zoomStep(factor) {
    var p = chosenPoint();
    if (p && isFinite(p[0]) && isFinite(p[1])) { view.cx = p[0]; view.cy = p[1]; }
    zoomAt(factor);
  }

  function reset() { view = {cx: size[0] / 2, cy: size[1] / 2, zoom: 1}; apply(); }

  // Zoom by `factor` keeping the point under (px, py) — pixels within the map — in place.
  function zoomAt(factor, px, py) {
    if (px === undefined) { px = paneWidth() / 2; py = map.clientHeight / 2; }
    var s = scale();
    var wx = view.cx + (px - paneWidth() / 2) * s, wy = view.cy + (py - map.clientHeight / 2) * s;
    view.zoom *= factor;
    clampView();
    var t = scale();
    view.cx = wx - (px - paneWidth() / 2) * t;
    view.cy = wy - (py - map.clientHeight / 2) * t;
    apply();
  }

  function panBy(dx, dy) {  // in pixels
    var s = scale();
    view.cx -= dx * s; view.cy -= dy * s;
    apply();
  }

  function local(evt) {
    var r = map.getBoundingClientRect();
    return [evt.clientX - r.left, evt.clientY - r.top];
  }

  // ---- pointers: one drags, two pinch -------------------------------------------------------
  var pointers = new Map(), last = null;

  function spread() {
    var p = Array.from(pointers.values());
    return p.length < 2 ? null : {d: Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]),
                                   m: [(p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2]};
  }

  function onDown(evt) {
    if (evt.target.closest(".fd-tools") || (evt.pointerType === "mouse" && evt.button !== 0)) return;
    pointers.set(evt.pointerId, local(evt));
    last = pointers.size === 1 ? local(evt) : spread();
    map.classList.add("fd-dragging");
    try { evt.target.setPointerCapture(evt.pointerId); } catch (e) { /* not capturable */ }
  }

  function onMove(evt) {
    if (!pointers.has(evt.pointerId)) return;
    var here = local(evt);
    pointers.set(evt.pointerId, here);
    if (pointers.size === 1 && last && last.length === 2) {
      panBy(here[0] - last[0], here[1] - last[1]);
      last = here;
    } else if (pointers.size === 2) {
      var now = spread();
      if (last && last.d) {
        panBy(now.m[0] - last.m[0], now.m[1] - last.m[1]);
        zoomAt(now.d / last.d, now.m[0], now.m[1]);
      }
      last = now;
    }
    evt.preventDefault();
  }

  function onUp(evt) {
    pointers.delete(evt.pointerId);
    last = pointers.size === 1 ? Array.from(pointers.values())[0] : spread();
    if (!pointers.size) map.classList.remove("fd-dragging");
  }

  function onWheel(evt) {
    evt.preventDefault();
    var p = local(evt);
    zoomAt(Math.pow(1.0015, -evt.deltaY * (evt.deltaMode === 1 ? 30 : 1)), p[0], p[1]);
  }

  function onKey(evt) {
    if (evt.target !== map) return;
    var step = 60, keys = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
    if (keys[evt.key]) panBy(keys[evt.key][0], keys[evt.key][1]);
    else if (evt.key === "+" || evt.key === "=") zoomStep(1.5);
    else if (evt.key === "-" || evt.key === "_") zoomStep(1 / 1.5);
    else if (evt.key === "0") reset();
    else return;
    evt.preventDefault();
  }

  function setUpMap() {
    map = document.getElementById("fd-map");
    if (!map || map.dataset.ready) return;
    map.dataset.ready = "1";
    map.classList.add("fd-js");
    var box = (map.dataset.viewbox || "0 0 1 1").split(/\s+/).map(Number);
    size = [box[2], box[3]];
    try { positions = JSON.parse(document.getElementById("fd-positions").textContent); } catch (e) { positions = {}; }
    try { view = JSON.parse(sessionStorage.getItem(storeKey)); } catch (e) { view = null; }
    var fresh = !view || !isFinite(view.cx) || !isFinite(view.zoom);
    if (fresh) view = {cx: size[0] / 2, cy: size[1] / 2, zoom: 1};
    var sea = document.getElementById("fd-sea");
    sea.addEventListener("pointerdown", onDown);
    sea.addEventListener("pointermove", onMove);
    sea.addEventListener("pointerup", onUp);
    sea.addEventListener("pointercancel", onUp);
    map.addEventListener("wheel", onWheel, {passive: false});
    map.addEventListener("keydown", onKey);
    map.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "in") zoomStep(1.5); else if (how === "out") zoomStep(1 / 1.5); else reset();
      });
    });
    window.addEventListener("resize", apply);
    board = map.closest(".fd-board");
    if (board && window.ResizeObserver) new ResizeObserver(fitBoard).observe(board);
    window.addEventListener("resize", fitBoard);
    window.addEventListener("scroll", fitBoard, {passive: true});
    movePieces();
    if (fresh) openOnFleet(); else apply();
  }

  // On a wide screen the board (the map, its legend, the price lists) stays on screen beside the
  // turn while that scrolls. Taller than the screen (its legend or the price lists open), it
  // scrolls with the page until its foot shows, or back until its head shows, and stays on
  // screen in between; stuck by its head, its foot stayed below the screen until the turn's
  // column ran out. Only scrolling moves it: opened or closed, it stays where it is (or, shorter,
  // keeps its foot where it was).
  var board = null, boardTop = null, lastY = window.scrollY;   // the board: found once, with the map
  function fitBoard() {
    var y = window.scrollY, delta = y - lastY;
    lastY = y;
    if (!board) return;
    var least = window.innerHeight - board.offsetHeight - 8;
    if (least >= 8 || getComputedStyle(board).position !== "sticky") {
      if (boardTop !== null) { board.style.top = ""; boardTop = null; }
      return;
    }
    var top = Math.max(least, Math.min(8, (boardTop === null ? 8 : boardTop) - delta));
    if (top !== boardTop) { board.style.top = top + "px"; boardTop = top; }
  }

  // The pieces' <svg> comes with the live part, which is replaced after every change; it is laid
  // over the map by moving it into the map's box (the map stays on screen while the turn scrolls).
  function movePieces() {
    if (!map) return;
    var fresh = Array.from(document.querySelectorAll(".fd-pieces")).filter(function (el) { return !map.contains(el); }).pop();
    if (!fresh) return;
    map.querySelectorAll(".fd-pieces").forEach(function (old) { if (old !== fresh) old.remove(); });
    map.insertBefore(fresh, map.querySelector(".fd-tools"));
  }

  // ---- choosing a ship, a square and a route -----------------------------------------------
  function pathData(nodes) {
    var d = "", prev = null;
    nodes.forEach(function (id) {
      var p = positions[id];
      if (!p) return;
      d += (prev === null || Math.abs(p[0] - prev) > size[0] / 2 ? "M" : "L") + p[0] + " " + p[1];
      prev = p[0];
    });
    return d;
  }

  function sailForm() { return document.querySelector(".fd-sail form"); }

  function preview(path) {
    var line = document.getElementById("fd-preview"), form = sailForm();
    if (!line || !form) return;
    line.setAttribute("d", path && path.length ? pathData([form.getAttribute("data-from")].concat(path)) : "");
    var dest = path && path.length ? path[path.length - 1] : null;
    document.querySelectorAll(".fd-reach a").forEach(function (a) {
      var circle = a.querySelector("circle");
      if (circle) circle.classList.toggle("fd-on", a.getAttribute("data-to") === dest);
    });
  }

  function chosenPath(select) {
    try { return JSON.parse(select.value || "[]"); } catch (e) { return []; }
  }

  // The square the last tap on the map chose, in the sail form then shown: a second tap on it sails.
  var armed = null;

  function showChoice(byTap) {
    var select = document.getElementById("fd-dest");
    if (!select) return;
    preview(chosenPath(select));
    var note = document.getElementById("fd-dest-hazards"), option = select.options[select.selectedIndex];
    // While the square the last tap chose is still the choice, the words keep saying what a
    // second tap does (a pointer leaving the square redraws the note).
    var again = byTap || (armed && armed.select === select && option && option.getAttribute("data-to") === armed.to);
    if (note) note.textContent = option && option.value ? say("path") + " " + option.textContent + (again ? " — " + say("again") : "") : "";
  }

  function showRoute() {
    var checked = document.querySelector(".fd-sail input[name='a.path']:checked");
    var index = checked ? checked.getAttribute("data-route") : null;
    document.querySelectorAll(".fd-route").forEach(function (path) {
      path.classList.toggle("fd-on", path.getAttribute("data-route") === index);
    });
  }

  function get(url) {
    // Only a match's page has a live part to fetch again (a replay shows the pieces without one:
    // asking htmx to swap into it logged htmx:targetError and an uncaught error at every step).
    if (!document.getElementById("match-live")) return;
    if (window.htmx) window.htmx.ajax("GET", url, {target: "#match-live", swap: "outerHTML"});
    else location.href = url;
  }

  // Links inside an SVG are focusable, but Enter does not click them everywhere: make it so.
  document.addEventListener("keydown", function (evt) {
    var link = evt.key === "Enter" && evt.target.closest && evt.target.closest("#fd-pieces a");
    if (link) { evt.preventDefault(); link.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})); }
  });

  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest("#fd-pieces a");
    if (link) {
      evt.preventDefault();
      var to = link.getAttribute("data-to"), select = document.getElementById("fd-dest");
      if (to && select) {
        var option = select.querySelector("option[data-to='" + to + "']");
        if (option) {
          // Only a second tap on the square the last tap chose sails: a destination picked in the
          // list (or kept by the browser from before) is chosen again by the first tap, not sailed
          // to, as the words beside the map say.
          if (armed && armed.to === to && armed.select === select && select.value === option.value && sailForm()) {
            armed = null;
            sailForm().requestSubmit();
            return;
          }
          select.value = option.value;
          armed = {to: to, select: select};
          showChoice(true);
          reveal(document.querySelector(".fd-sail .actions"));
          return;
        }
      }
      get(link.getAttribute("href"));
      return;
    }
    var routes = evt.target.closest && evt.target.closest("[data-routes]");
    if (routes) {
      var dest = document.getElementById("fd-dest"), opt = dest && dest.options[dest.selectedIndex];
      var id = opt && opt.getAttribute("data-to");
      if (!id) {
        var note = document.getElementById("fd-dest-hazards");
        if (note) note.textContent = say("choose");
        return;
      }
      get(routes.getAttribute("data-routes") + encodeURIComponent(id));
    }
  });

  document.addEventListener("pointerover", function (evt) {
    var link = evt.target.closest && evt.target.closest(".fd-reach a");
    var select = document.getElementById("fd-dest");
    if (!link || !select) return;
    var option = select.querySelector("option[data-to='" + link.getAttribute("data-to") + "']");
    if (option) { try { preview(JSON.parse(option.value)); } catch (e) { /* ignore */ } }
  });

  document.addEventListener("pointerout", function (evt) {
    if (evt.target.closest && evt.target.closest(".fd-reach a")) showChoice();
  });

  document.addEventListener("change", function (evt) {
    if (evt.target.id === "fd-dest") { armed = null; showChoice(false); }
    if (evt.target.name === "a.path" && evt.target.type === "radio") showRoute();
  });

  // The socket sends the live part after every change, and on connecting. A version this page
  // already shows (the answer to the viewer's own action got here first) is not swapped in
  // again (site.js): that would only reset the focus and wipe what the viewer has chosen — a
  // ship to sail, a target, the offer form (the live part's data-fd-query). While the viewer's
  // own request is on its way the socket waits (the answer is at least as new); a newer version
  // asks for the choice again.
  var inFlight = new Set(), missed = 0, chosen = null;

  function liveQuery() {
    var live = document.querySelector(".fd-live[data-fd-query]");
    return live ? live.getAttribute("data-fd-query") : null;
  }

  function shownVersion() {
    var live = document.getElementById("match-live");
    return live ? Number(live.getAttribute("data-version")) : -1;
  }

  document.addEventListener("htmx:beforeRequest", function (evt) { inFlight.add(evt.detail.xhr); });
  document.addEventListener("htmx:afterRequest", function (evt) {
    inFlight.delete(evt.detail.xhr);
    if (!inFlight.size && missed && missed > shownVersion()) { missed = 0; get("?" + (liveQuery() || "")); }
    if (!inFlight.size) missed = 0;
  });

  function settle() {
    // A request whose element left the page (a boosted form swapping the body) never reports
    // its end to the document: forget every request that has finished.
    inFlight.forEach(function (xhr) { if (xhr.readyState === 4) inFlight.delete(xhr); });
  }

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var version = /data-version="(\d+)"/.exec(evt.detail.message || "");
    chosen = null;
    settle();
    if (!version || !document.querySelector(".fd-live")) return;
    version = Number(version[1]);
    if (evt.defaultPrevented) return;   // a part this page already shows (static/js/site.js)
    if (inFlight.size) { evt.preventDefault(); missed = Math.max(missed, version); return; }
    chosen = liveQuery();
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (chosen && !liveQuery()) get("?" + chosen);
    chosen = null;
  });

  // Keyboard users keep their place: when the live part is replaced, the control that had the
  // focus (the same link, button or field in the new part) gets it back.
  var focusKey = null, focusPart = null;

  function quoted(value) { return '"' + String(value).replace(/["\\]/g, "\\$&") + '"'; }

  function rememberFocus() {
    var el = document.activeElement;
    // Nothing focused in the live part: keep what an earlier swap still has to give back (a
    // socket message landing between the answer's swap and its settle must not wipe it).
    if (!el || !el.closest || !el.closest("#match-live")) return;
    focusKey = focusPart = null;
    // By its own classes: htmx adds htmx-request to the control while its request runs.
    var own = Array.from(el.classList).filter(function (c) { return c.indexOf("htmx-") !== 0; });
    var tag = el.tagName.toLowerCase() + own.map(function (c) { return "." + CSS.escape(c); }).join("");
    if (el.id) focusKey = "#" + CSS.escape(el.id);
    else if (el.getAttribute("href")) focusKey = tag + "[href=" + quoted(el.getAttribute("href")) + "]";
    else if (el.name && el.value) focusKey = tag + "[name=" + quoted(el.name) + "][value=" + quoted(el.value) + "]";
    else focusKey = "#fd-no-such-control";     // nothing to find it by: its part takes the focus
    var section = el.closest("#match-live section[class]"), row = el.closest("#match-live [data-row]");
    if (section) {
      var kind = "#match-live section." + section.className.split(/\s+/)[0];
      focusPart = {kind: kind, index: Array.from(document.querySelectorAll(kind)).indexOf(section),
                   row: row ? row.getAttribute("data-row") : null};
    }
  }

  // A row of a list that stays through the change (a ship's, by its number), by its key.
  function rowOf(key) {
    return key ? document.querySelector("#match-live [data-row=" + quoted(key) + "]") : null;
  }

  // The control itself may be gone with the action (Roll, Sail): then the part of the page it was
  // in takes the focus (read out with its news, the roll or the voyage), and Tab goes on from there.

  function restoreFocus() {
    if (!focusKey) return;
    var key = focusKey, part = focusPart;
    focusKey = focusPart = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    var el = document.querySelector("#match-live " + key);
    // "Sail…" chosen by keyboard: on to where she may sail.
    if (el && /[?&]sail=\d+(&near=fleet)?#fd-sail$/.test(el.getAttribute("href") || "")) el = document.getElementById("fd-dest") || el;
    // Gone with the action (fitted out, loaded): the row it was in (the ship's, read out with its
    // news), else the part of the page.
    if (!el && part) el = rowOf(part.row) || document.querySelectorAll(part.kind)[part.index] || null;
    if (!el) el = document.querySelector("#match-live .fd-turn");
    if (!el) return;
    if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
    el.focus({preventScroll: true});
  }

  // An action never scrolls the page away from what it acts on: after the live part is replaced,
  // the sail form (when a ship was chosen), else the part of the page the player acted in, is
  // brought into view if it is not (below the map on a phone: the sections' scroll-margin).
  var actedIn = null;

  // Where the screen begins below the map (sticky on a phone), or 0.
  function coveredTop() {
    return map && getComputedStyle(map).position === "sticky" ? map.getBoundingClientRect().bottom : 0;
  }
  // What lies below the live part keeps its place through a change (static/js/site.js): below the map.
  if (window.tradewindsLive) window.tradewindsLive.coveredTop = coveredTop;

  function reveal(el, partly) {   // partly: some of it on screen is enough (the rest stays put)
    if (!el) return;
    var r = el.getBoundingClientRect(), top = coveredTop();
    if (r.top >= top && r.bottom <= window.innerHeight) return;
    if (partly && r.bottom > top + 40 && r.top < window.innerHeight - 40) return;
    el.scrollIntoView({block: r.height > window.innerHeight - top ? "start" : "nearest"});
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var section = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("#match-live section[class]");
    var submitter = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent &&
      evt.detail.requestConfig.triggeringEvent.submitter;
    if (submitter && submitter.closest) section = submitter.closest("#match-live section[class]") || section;
    // The sail form opened under a ship's row: the list of ships is where the player is, and
    // stays (the form itself goes with the voyage).
    if (section && section.closest(".fd-fleet")) section = section.closest(".fd-fleet");
    var control = submitter || evt.detail.elt, row = control && control.closest && control.closest("#match-live [data-row]");
    actedIn = null;
    if (section) {
      var kind = "#match-live section." + section.className.split(/\s+/)[0];
      actedIn = {kind: kind, index: Array.from(document.querySelectorAll(kind)).indexOf(section), top: 0,
                 row: row ? row.getAttribute("data-row") : null, rowTop: null,
                 hadForm: !!document.querySelector("#match-live #fd-offer, #match-live #fd-attack")};
    }
  });

  // Just before the swap: where the part acted in sits now (the request may have taken a while).
  document.addEventListener("htmx:beforeSwap", function () {
    var old = actedIn && document.querySelectorAll(actedIn.kind)[actedIn.index];
    if (old) actedIn.top = old.getBoundingClientRect().top;
    var oldRow = actedIn && rowOf(actedIn.row);
    if (oldRow) actedIn.rowTop = oldRow.getBoundingClientRect().top;
  });

  function keepInView() {
    var sail = document.querySelector("#match-live .fd-sail"), acted = actedIn;
    actedIn = null;
    // A change the player did not act for, while they were below the live part (their orders,
    // the chat): what is below kept its place (static/js/site.js), and the open form, asked for again
    // with the new version, is not brought back into view over it.
    if (!acted && window.tradewindsLive && window.tradewindsLive.away) return;
    // Opened under the ship's row (from the list of ships): some of it on screen is enough, the
    // page stays put; opened from the map, the whole form is brought into view. The routes to a
    // destination, once asked for ("Other routes…"), are what the player reads next: all of them
    // (the form's foot alone could show, the routes above the screen).
    var routes = sail && sail.querySelector("fieldset");
    if (routes) { reveal(routes); return; }
    if (sail) { reveal(sail, !!sail.closest(".fd-fleet")); return; }
    // A form just opened (the offer, an attack) is shown from its start, its fields with it.
    var form = document.querySelector("#match-live #fd-offer, #match-live #fd-attack");
    if (form && acted && !acted.hadForm) { reveal(form); return; }
    if (!acted) return;
    // The row acted in (a ship's), when it stays, stays where it was on the screen: its section
    // may shrink above or below it (a ship fitted out at the foot of a long list).
    var row = acted.rowTop !== null ? rowOf(acted.row) : null;
    if (row) {
      var shift = row.getBoundingClientRect().top - acted.rowTop;
      if (Math.abs(shift) > 1) window.scrollBy(0, shift);
      reveal(row, true);
      return;
    }
    var el = document.querySelectorAll(acted.kind)[acted.index] || document.querySelector(acted.kind);
    if (el) {
      // The part acted in stays where it was on the screen, whatever grew or shrank above it.
      var moved = el.getBoundingClientRect().top - acted.top;
      if (Math.abs(moved) > 1) window.scrollBy(0, moved);
    } else {
      el = document.querySelector("#match-live .fd-turn");     // gone with the action (sailed): the turn
    }
    if (el && el.classList.contains("fd-turn")) reveal(el.querySelector(".actions") || el.querySelector("p") || el);
    else reveal(el, true);
  }

  document.addEventListener("htmx:beforeSwap", rememberFocus);
  document.addEventListener("htmx:afterSettle", restoreFocus);
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.elt && evt.detail.elt.id === "match-live") keepInView();
  });
  document.addEventListener("htmx:wsBeforeMessage", rememberFocus);
  document.addEventListener("htmx:wsAfterMessage", restoreFocus);

  function onLoad() {
    setUpMap();
    movePieces();
    if (map) { apply(); showReach(); }   // the new pieces' <svg> takes the kept zoom
    showChoice(false);
    showRoute();
  }

  if (window.htmx) window.htmx.onLoad(onLoad);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onLoad);
  else onLoad();
})();
