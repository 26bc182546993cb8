// Tradewinds' service worker: shows a push (its payload was decrypted by the browser) and opens
// the match at the right place when it is clicked. Served at /sw.js so its scope is the site.
"use strict";
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "Tradewinds", {
    body: data.body || "", tag: data.tag || undefined, lang: data.lang || undefined,
    data: {url: data.url || "/"}, icon: "{{ icon }}"
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  // Only this site's pages open: the path, query and place of the link, on this origin.
  var given = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  var url = new URL(given.pathname + given.search + given.hash, self.location.origin);
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url.split("#")[0] === url.href.split("#")[0] && "focus" in tabs[i]) {
        return tabs[i].navigate(url.href).then(function (tab) { return (tab || tabs[i]).focus(); });
      }
    }
    return self.clients.openWindow(url.href);
  }));
});
