// 'Modo liviano' offered once by itself on a slow connection (decision 077). Slow is what the
// browser says (`navigator.connection.effectiveType` of 'slow-2g', '2g' or '3g', where it has
// it), or a first load that took more than SLOW_LOAD_MS from the navigation's start to the page
// being ready for scripts. The offer is made once per browser (localStorage); the answer is the
// menu's own form, so it is kept in the 'liviano' cookie, which works without scripts.
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { LIGHT_MODE_PATH } from "~/site/light-mode";

/** A first load slower than this counts as a slow connection where the browser cannot say. */
export const SLOW_LOAD_MS = 4000;
const SLOW_TYPES = new Set(["slow-2g", "2g", "3g"]);
const OFFERED_KEY = "ayllu-liviano-ofrecido";

function slowConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } })
    .connection;
  if (connection?.effectiveType && SLOW_TYPES.has(connection.effectiveType)) return true;
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  // The document's arrival and the scripts it asked for: what the connection decides.
  const loaded = navigation?.domContentLoadedEventEnd || performance.now();
  return loaded > SLOW_LOAD_MS;
}

function alreadyOffered(): boolean {
  try {
    return localStorage.getItem(OFFERED_KEY) !== null;
  } catch {
    return true;
  }
}

export function LightModeOffer() {
  const [shown, setShown] = useState(false);
  const location = useLocation();
  useEffect(() => {
    if (alreadyOffered() || !slowConnection()) return;
    try {
      localStorage.setItem(OFFERED_KEY, new Date().toISOString());
    } catch {
      return;
    }
    setShown(true);
    // Only on the first page: a person's later pages are their own.
  }, []);
  if (!shown) return null;
  const back = `${location.pathname}${location.search}`;
  return (
    <section className="light-mode-offer" aria-labelledby="light-mode-offer-title">
      <h2 id="light-mode-offer-title">¿Conexión lenta?</h2>
      <p>
        El modo liviano carga las páginas sin animaciones ni scripts y con imágenes pequeñas. Puedes
        cambiarlo cuando quieras desde el menú.
      </p>
      <div className="light-mode-offer-actions">
        <form method="post" action={LIGHT_MODE_PATH}>
          <input type="hidden" name="volver" value={back} />
          <input type="hidden" name="modo" value="liviano" />
          <button type="submit" className="button button-small">
            Usar el modo liviano
          </button>
        </form>
        <form method="post" action={LIGHT_MODE_PATH}>
          <input type="hidden" name="volver" value={back} />
          <input type="hidden" name="modo" value="normal" />
          <button type="submit" className="button button-small button-ghost">
            No, gracias
          </button>
        </form>
      </div>
    </section>
  );
}
