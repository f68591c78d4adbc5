// What the pages that work without a connection share (the door's check-in, decision 019; a
// judge's screen, decision 059): the rounds in which they send what waits and read the state
// again, and the service worker that keeps the page and its files on the phone. Browser only.
import { useEffect, useMemo } from "react";

/**
 * `run` made to go one at a time: a call while it runs asks for one more run after it (what was
 * queued meanwhile goes then, not at the next round 20 seconds later or never if the page is
 * left) and answers when that one ends. Several calls meanwhile ask for one more run in all.
 */
export function oneAtATime(run: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    // A run that fails does not cancel the one asked for meanwhile; the last failure is told.
    let failure: { error: unknown } | null = null;
    try {
      do {
        again = false;
        try {
          await run();
          failure = null;
        } catch (error) {
          failure = { error };
        }
      } while (again);
    } finally {
      current = null;
    }
    if (failure) throw failure.error;
  };
  return () => {
    if (current) {
      again = true;
      return current;
    }
    // Started on the next tick, so `current` is set before the loop can end and clear it.
    current = Promise.resolve().then(loop);
    return current;
  };
}

/**
 * `oneAtATime` for a hook's sending function, made again when the function changes. It never
 * rejects: what failed to go stays queued on the phone, and the next round tries again.
 */
export function useOneAtATime(run: () => Promise<void>): () => Promise<void> {
  return useMemo(() => {
    const send = oneAtATime(run);
    return () => send().catch(() => undefined);
  }, [run]);
}

/**
 * Sends what waits and reads the state again when the connection returns, when the page is shown
 * again (the phone woke, the person came back from another tab) and every 20 seconds while it
 * is shown; `setOnline` follows the browser's online and offline events.
 */
export function useSyncRounds(
  send: () => Promise<void>,
  refresh: () => Promise<void>,
  setOnline: (online: boolean) => void,
) {
  useEffect(() => {
    const round = () => void send().then(refresh);
    const wentOnline = () => {
      setOnline(true);
      round();
    };
    const wentOffline = () => setOnline(false);
    const cameBack = () => {
      if (document.visibilityState === "visible" && navigator.onLine) round();
    };
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    document.addEventListener("visibilitychange", cameBack);
    // Other phones enter things too: the page follows them while there is a connection.
    const every = window.setInterval(() => {
      if (navigator.onLine && document.visibilityState === "visible") round();
    }, 20_000);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      document.removeEventListener("visibilitychange", cameBack);
      window.clearInterval(every);
    };
  }, [send, refresh, setOnline]);
}

/**
 * Registers `script` for `scope` and, once that registration's own worker runs (`ready` may
 * answer with another page's, whose scope is wider), asks it to keep this page and the files it
 * loaded. Without a service worker the page still works while it stays open.
 */
export function useKeptForOffline(script: string, scope: () => string) {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register(script, { scope: scope() })
      .then(async (registration) => {
        const worker =
          registration.active ??
          (await new Promise<ServiceWorker | null>((resolve) => {
            const coming = registration.installing ?? registration.waiting;
            if (!coming) return resolve(null);
            coming.addEventListener("statechange", () => {
              if (coming.state === "activated") resolve(coming);
              if (coming.state === "redundant") resolve(null);
            });
          }));
        const files = performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(location.origin));
        worker?.postMessage({ type: "guardar", urls: [location.href, ...files] });
      })
      .catch(() => {
        // Without a service worker the page still works while it stays open.
      });
    // Registered once per page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * A request of an offline page to its data route, the same for the door's check-in and the judge's
 * screen: null when there is no connection (`offline` is called) or the session has ended (a
 * redirect to sign in, a 401: `sessionEnded` is called); otherwise the answer, to be read by the
 * page's own rules.
 */
export async function askDataRoute(
  url: string,
  init: RequestInit,
  on: { offline: () => void; sessionEnded: () => void },
): Promise<Response | null> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual" });
  } catch {
    on.offline();
    return null;
  }
  if (response.type === "opaqueredirect" || response.status === 401) {
    on.sessionEnded();
    return null;
  }
  return response;
}
