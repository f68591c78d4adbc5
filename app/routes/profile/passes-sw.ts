// The service worker of 'Mis entradas' (app/attendance/passes-sw.js). Served under /mis-entradas/,
// whose own scope would be /mis-entradas/ (not the page): `Service-Worker-Allowed` widens it to
// /mis-entradas exactly, and no further, so this worker can only ever control that page.
import script from "~/attendance/passes-sw.js?raw";

export function loader() {
  return new Response(script, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Service-Worker-Allowed": "/mis-entradas",
      // The browser asks again on every visit, so a new version takes over at once.
      "Cache-Control": "no-cache",
    },
  });
}
