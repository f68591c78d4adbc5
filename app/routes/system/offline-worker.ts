// The service worker of the pages kept on a phone (app/attendance/offline-worker.js), at its
// addresses: /registro-sw.js for the check-in pages (decision 019), /mis-entradas/sw.js for a
// member's passes (decision 050), /jurado-sw.js for a judge's screen (decision 059), registered
// with that one page as its scope. The passes' worker sits under /mis-entradas/, whose own scope
// would be /mis-entradas/ (not the page): `Service-Worker-Allowed` widens it to /mis-entradas
// exactly, and no further, so that worker can only ever control that page.
import script from "~/attendance/offline-worker.js?raw";
import type { Route } from "./+types/offline-worker";

export function loader({ request }: Route.LoaderArgs) {
  const headers = new Headers({
    "Content-Type": "text/javascript; charset=utf-8",
    // The browser asks again on every visit, so a new version takes over at once.
    "Cache-Control": "no-cache",
  });
  if (new URL(request.url).pathname === "/mis-entradas/sw.js")
    headers.set("Service-Worker-Allowed", "/mis-entradas");
  return new Response(script, { headers });
}
