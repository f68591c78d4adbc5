// The service worker of 'Mis entradas' (docs/decisions/050-mis-entradas-offline.md), served at
// /mis-entradas/sw.js by app/routes/profile/passes-sw.ts, which allows it the scope /mis-entradas
// and no wider: it controls that page alone. It keeps the page as last received (the passes' QR
// codes are SVG inside it), the built files and icons it loaded and its manifest, so that the page
// opens again without a connection. When the connection is there the page comes from the server,
// and the copy is replaced. When the server answers with a redirect (the session is over) the copy
// is dropped. Signing out, or another member's sign-in, makes the browser delete all of it
// (`Clear-Site-Data: "storage"`). Nothing else is intercepted, nothing goes to IndexedDB.
const CACHE = "ayllu-entradas-v1";
const PAGE = "/mis-entradas";

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("ayllu-entradas-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** Built files, uploaded photos: their names change with their content. */
function immutable(url) {
  return url.pathname.startsWith("/assets/") || url.pathname.startsWith("/imagenes/");
}

/** What the page needs to open without a connection: itself, its files, icons and manifest. */
function keepable(url) {
  if (url.origin !== self.location.origin || url.search) return false;
  return (
    url.pathname === PAGE ||
    url.pathname === `${PAGE}.webmanifest` ||
    immutable(url) ||
    /^\/(icons\/)?[\w-]+\.(svg|png|ico)$/.test(url.pathname)
  );
}

/** The page from the server: kept when it is the page, the copy dropped when the session is over. */
async function fromServer(request) {
  const response = await fetch(request);
  if (response.type === "opaqueredirect" || response.redirected) {
    await caches.delete(CACHE);
  } else if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(PAGE, response.clone());
  }
  return response;
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
        try {
          if (url.pathname === PAGE) {
            await fromServer(new Request(PAGE, { credentials: "same-origin", redirect: "manual" }));
          } else if (!(await cache.match(url.pathname))) {
            const response = await fetch(url.pathname, { credentials: "same-origin" });
            if (response.ok && !response.redirected) await cache.put(url.pathname, response);
          }
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
  if (url.pathname === PAGE) {
    if (request.mode !== "navigate") return;
    // The server first, so the passes are current; the copy when there is no connection.
    event.respondWith(
      (async () => {
        try {
          const response = await fromServer(request);
          // A proxy's 502 while the server is down is no better than no connection.
          if (response.status >= 500) return (await caches.match(PAGE)) ?? response;
          return response;
        } catch (error) {
          const kept = await caches.match(PAGE);
          if (kept) return kept;
          throw error;
        }
      })(),
    );
    return;
  }
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      if (immutable(url)) {
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
