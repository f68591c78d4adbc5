// The check-in page's service worker (docs/decisions/019-check-in.md), registered with the scope
// /admin/eventos/ by /admin/eventos/:id/registro. It keeps that page and the files it loads, so
// that the page opens again without a connection; everything else goes to the network untouched.
// The participant list and the queued check-ins live in IndexedDB (app/attendance/check-in-store.ts).
const CACHE = "ayllu-registro-v1";
const CHECK_IN_PAGE = /^\/admin\/eventos\/[0-9a-fA-F-]{36}\/registro$/;

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("ayllu-registro-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/**
 * Files the page asks to keep: the page itself, its scripts, styles and fonts, the site's icons,
 * and photos uploaded to the site (participants' own photos). Photos on other sites are not kept.
 */
function keepable(url) {
  if (url.origin !== self.location.origin || url.search) return false;
  if (CHECK_IN_PAGE.test(url.pathname)) return true;
  return (
    url.pathname.startsWith("/assets/") ||
    url.pathname.startsWith("/imagenes/") ||
    /^\/[\w-]+\.(svg|png|ico)$/.test(url.pathname)
  );
}

self.addEventListener("message", (event) => {
  if (event.origin !== self.location.origin) return;
  const data = event.data;
  if (!data || data.type !== "guardar" || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const href of data.urls.slice(0, 200)) {
        let url;
        try {
          url = new URL(href, self.location.origin);
        } catch {
          continue;
        }
        if (!keepable(url)) continue;
        if (!CHECK_IN_PAGE.test(url.pathname) && (await cache.match(url.pathname))) continue;
        try {
          const response = await fetch(url.pathname, { credentials: "same-origin" });
          if (response.ok && !response.redirected) await cache.put(url.pathname, response);
        } catch {
          // Offline now: the next visit keeps it.
        }
      }
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!keepable(url)) return;
  if (request.mode === "navigate" && CHECK_IN_PAGE.test(url.pathname)) {
    // The network first, so the list is fresh; the kept copy when there is no connection.
    event.respondWith(
      (async () => {
        try {
          const response = await fetch(request);
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url.pathname, copy)));
          }
          // A proxy's 502 while the server is down is no better than no connection.
          if (response.status >= 500) return (await caches.match(url.pathname)) ?? response;
          return response;
        } catch (error) {
          const kept = await caches.match(url.pathname);
          if (kept) return kept;
          throw error;
        }
      })(),
    );
    return;
  }
  if (CHECK_IN_PAGE.test(url.pathname)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Built files and uploaded photos never change under their name: the kept copy first.
      if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/imagenes/")) {
        const kept = await cache.match(url.pathname);
        if (kept) return kept;
      }
      try {
        const response = await fetch(request);
        if (response.ok) event.waitUntil(cache.put(url.pathname, response.clone()));
        return response;
      } catch (error) {
        const kept = await cache.match(url.pathname);
        if (kept) return kept;
        throw error;
      }
    })(),
  );
});
