// The service workers of the pages the site keeps on a phone for use without a connection,
// one script served at three addresses (app/routes/system/offline-worker.ts); each reads which it is
// from its own address:
// - /registro-sw.js, scope /admin/eventos/: an event's check-in page (decision 019). Its list and
//   queued check-ins live in IndexedDB (app/attendance/check-in-store.ts), not here.
// - /mis-entradas/sw.js, scope /mis-entradas and no wider: a member's passes (decision 050). When
//   the server answers that page with a redirect (the session is over) the copy is dropped.
// - /jurado-sw.js, scope one judge's screen (/admin/eventos/…/jurado/…, decision 059): its state
//   and queued entries live in IndexedDB (app/competitions/judging/judge-store.ts). Its scope is
//   longer than the check-in's, so on that page it is this worker that answers.
// Each keeps its page as last received and the files it loaded (built files, uploaded photos,
// icons, its manifest), so that the page opens again without a connection; when the connection is
// there the page comes from the server and replaces the copy. Nothing else is intercepted. Signing
// out makes the browser delete all of it (`Clear-Site-Data: "storage"`).
const WORKERS = {
  "/registro-sw.js": {
    cache: "ayllu-registro-v1",
    page: /^\/admin\/eventos\/[0-9a-fA-F-]{36}\/registro$/,
    forgetOnRedirect: false,
  },
  "/jurado-sw.js": {
    cache: "ayllu-jurado-v1",
    page: /^\/admin\/eventos\/[0-9a-fA-F-]{36}\/jurado\/[0-9a-fA-F-]{36}$/,
    forgetOnRedirect: false,
  },
  "/mis-entradas/sw.js": {
    cache: "ayllu-entradas-v1",
    page: /^\/mis-entradas$/,
    forgetOnRedirect: true,
  },
};
const { cache: CACHE, page: PAGE, forgetOnRedirect } = WORKERS[self.location.pathname];
const FAMILY = CACHE.replace(/v\d+$/, "");

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(FAMILY) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** Built files and uploaded photos: their names change with their content. */
function immutable(url) {
  return url.pathname.startsWith("/assets/") || url.pathname.startsWith("/imagenes/");
}

/**
 * What the page needs to open without a connection: itself, its scripts, styles and fonts, its
 * manifest, the site's icons, and photos uploaded to the site. Photos on other sites are not kept.
 */
function keepable(url) {
  if (url.origin !== self.location.origin || url.search) return false;
  return (
    PAGE.test(url.pathname) ||
    immutable(url) ||
    url.pathname.endsWith(".webmanifest") ||
    /^\/(icons\/)?[\w-]+\.(svg|png|ico)$/.test(url.pathname)
  );
}

/** The page from the server: kept when it is the page; the copy dropped when the session is over. */
async function pageFromServer(request, path) {
  const response = await fetch(request);
  if (response.type === "opaqueredirect" || response.redirected) {
    if (forgetOnRedirect) await caches.delete(CACHE);
  } else if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(path, response.clone());
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
          if (PAGE.test(url.pathname)) {
            const request = new Request(url.pathname, { redirect: "manual" });
            await pageFromServer(request, url.pathname);
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
  if (PAGE.test(url.pathname)) {
    if (request.mode !== "navigate") return;
    // The server first, so the page is current; the copy when there is no connection.
    event.respondWith(
      (async () => {
        try {
          const response = await pageFromServer(request, url.pathname);
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
