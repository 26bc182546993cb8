// The profile's "Notify me on this device" switch: registers the service worker (/sw.js, scope
// "/"), subscribes this browser with the site's VAPID key, and hands the subscription to the
// server, which lists the device below. Switched off, the browser unsubscribes and the server
// forgets it.
(function () {
  "use strict";
  var box = document.querySelector("[data-push-switch]");
  if (!box) return;
  var input = box.querySelector("#push-on");
  var state = box.querySelector("#push-state");
  var form = document.querySelector("form input[name=csrfmiddlewaretoken]");
  var csrf = form ? form.value : "";

  function say(key) { state.textContent = key ? state.dataset[key] : ""; }

  function keyBytes(b64) {
    var s = (b64 + "===".slice((b64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function deviceName() {
    var ua = navigator.userAgent, browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge"
      : /Chrom(e|ium)\//.test(ua) ? "Chromium" : /Safari\//.test(ua) ? "Safari" : "Browser";
    var os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS"
      : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
    return os ? browser + " / " + os : browser;
  }

  function send(url, body) {
    return fetch(url, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}, body: JSON.stringify(body)})
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r; });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  var ready = navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
    return navigator.serviceWorker.ready;
  });
  ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
    var listed = sub && document.querySelector(".push-devices li[data-endpoint='" + CSS.escape(sub.endpoint) + "']");
    input.checked = !!listed;
    input.disabled = false;
    box.dataset.ready = "1";
  }).catch(function () { say("unsupported"); });

  input.addEventListener("change", function () {
    input.disabled = true;
    say("");
    var done;
    if (input.checked) {
      done = Notification.requestPermission().then(function (p) {
        if (p !== "granted") { say("denied"); throw null; }
        return ready;
      }).then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)});
      }).then(function (sub) {
        var json = sub.toJSON();
        return send(box.dataset.subscribeUrl, {endpoint: json.endpoint, keys: json.keys, name: deviceName()});
      });
    } else {
      done = ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
        if (!sub) return null;
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () { return send(box.dataset.unsubscribeUrl, {endpoint: endpoint}); });
      });
    }
    done.then(function () { window.location.reload(); }).catch(function (e) {
      if (e !== null) say("failed");
      input.checked = !input.checked;
      input.disabled = false;
    });
  });
})();
