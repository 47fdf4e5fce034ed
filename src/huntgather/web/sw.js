// The service worker of huntgather's page (served at /sw.js, scope /): it shows the "your turn"
// notifications the server pushes (Web Push, docs/accounts.md#turn-notifications) and opens the
// game when one is clicked. It caches nothing: the page works as before without it.
//
// A push's data is JSON: {title, body, game, games, url}; url is relative to the scope
// ("#/play/GAME", or "#/me" when several games wait).

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const title = typeof data.title === "string" ? data.title : "Your turn";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    tag: "huntgather-turn",   // a newer notification replaces the older one
    renotify: true,
    data: { url: typeof data.url === "string" && data.url.startsWith("#/") ? data.url : "#/me" },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data.url, self.registration.scope).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const page of pages) {
      if (new URL(page.url).origin === self.location.origin && "focus" in page) {
        await page.focus();
        if ("navigate" in page) await page.navigate(target);
        return;
      }
    }
    await self.clients.openWindow(target);
  })());
});
