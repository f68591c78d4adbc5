// 'Mis entradas' on the phone (docs/decisions/050-mis-entradas-offline.md): the page's service
// worker (./passes-sw.js, served at /mis-entradas/sw.js) keeps the page and the files it loaded,
// so that it opens without a connection. This hook registers it, tells it what to keep, follows
// the connection, brings the page up to date when the connection returns, and holds the phone's
// offer to add the page to the home screen where the browser makes one.
import { useCallback, useEffect, useState } from "react";
import { useRevalidator } from "react-router";

export const PASSES_PAGE = "/mis-entradas";
export const PASSES_MANIFEST = "/mis-entradas.webmanifest";
const WORKER = "/mis-entradas/sw.js";

/** The page's icons, as its manifest names them, kept with the page. */
const ICONS = ["/icons/logo-192.png", "/icons/logo-512.png", "/logo.svg"];

/** Chromium's offer to install the page (not in TypeScript's DOM types). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** Asks the worker to keep these addresses (the page itself is fetched again, fresh). */
function keep(urls: string[]) {
  void navigator.serviceWorker?.ready
    .then((registration) => registration.active?.postMessage({ type: "guardar", urls }))
    .catch(() => {
      // Without a worker the page still works while it stays open.
    });
}

export function useOfflinePasses() {
  const revalidator = useRevalidator();
  const [online, setOnline] = useState(true);
  const [installPrompt, setInstallPrompt] = useState<InstallPromptEvent | null>(null);
  // Safari on iOS offers no prompt: it has 'Agregar a inicio' in its share menu instead.
  const [iosHint, setIosHint] = useState(false);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    // A page the worker did not serve (the first visit) is kept now, with every file it loaded;
    // a page it served was kept on the way.
    const first = navigator.serviceWorker.controller === null;
    navigator.serviceWorker
      .register(WORKER, { scope: PASSES_PAGE })
      .then(() => {
        const files = performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(location.origin));
        keep([...(first ? [PASSES_PAGE] : []), PASSES_MANIFEST, ...ICONS, ...files]);
      })
      .catch(() => {
        // No worker (a private window, say): the page works while it stays open.
      });
  }, []);

  const { revalidate } = revalidator;
  useEffect(() => {
    setOnline(navigator.onLine);
    const wentOnline = () => {
      setOnline(true);
      // The passes as the server has them now, on the screen, then (the connection proven) in
      // the phone's copy.
      void revalidate().then(() => keep([PASSES_PAGE]));
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
    };
  }, [revalidate]);

  useEffect(() => {
    const offered = (event: Event) => {
      event.preventDefault();
      setInstallPrompt(event as InstallPromptEvent);
    };
    const installed = () => setInstallPrompt(null);
    window.addEventListener("beforeinstallprompt", offered);
    window.addEventListener("appinstalled", installed);
    setIosHint((navigator as Navigator & { standalone?: boolean }).standalone === false);
    return () => {
      window.removeEventListener("beforeinstallprompt", offered);
      window.removeEventListener("appinstalled", installed);
    };
  }, []);

  const install = useCallback(async () => {
    if (!installPrompt) return;
    await installPrompt.prompt();
    await installPrompt.userChoice.catch(() => null);
    setInstallPrompt(null);
  }, [installPrompt]);

  return { online, canInstall: installPrompt !== null, install, iosHint };
}
