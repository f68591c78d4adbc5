import { useEffect } from "react";

/**
 * For a page whose own response headers allow what other pages' do not: the check-in pages'
 * camera, decoder worker and WebAssembly (server/http/security.server.ts, CHECK_IN_PAGES), and
 * /mis-entradas's service worker (OFFLINE_PAGES). A page the client-side router shows runs under
 * the headers of the document it came from, which allow none of them, so such a page reached that
 * way is loaded again as a document of its own. Links to it are full loads already
 * (reloadDocument); this catches any other way in.
 */
export function useOwnDocument(): void {
  useEffect(() => {
    const [entry] = performance.getEntriesByType("navigation");
    if (entry && new URL(entry.name).pathname !== window.location.pathname) {
      window.location.reload();
    }
  }, []);
}
