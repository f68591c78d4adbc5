import { useEffect } from "react";

/**
 * The camera, the decoder's worker and its WebAssembly are allowed by the check-in page's own
 * response headers (server/http/security.server.ts, CHECK_IN_PAGES). A page the client-side
 * router shows runs under the headers of the document it came from, which allow none of them, so
 * a check-in page reached that way is loaded again as a document of its own. Links to it are
 * full loads already (reloadDocument); this catches any other way in.
 */
export function useCheckInDocument(): void {
  useEffect(() => {
    const [entry] = performance.getEntriesByType("navigation");
    if (entry && new URL(entry.name).pathname !== window.location.pathname) {
      window.location.reload();
    }
  }, []);
}
