// The 'Modo liviano' switch (decision 049), in the site's menu at the top (decision 077): a plain
// form posting to /liviano, so it works without scripts, and a whole page load, not a client
// navigation: the page comes back with or without its scripts.
import { useLocation } from "react-router";
import { LIGHT_MODE_PATH } from "~/site/light-mode";

export function LightModeSwitch({ light }: { light: boolean }) {
  const location = useLocation();
  return (
    <form className="light-mode" method="post" action={LIGHT_MODE_PATH}>
      <input type="hidden" name="volver" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="modo" value={light ? "normal" : "liviano"} />
      <button
        type="submit"
        className="button button-small button-ghost"
        title={
          light
            ? "Activo: sin animaciones ni scripts, con imágenes pequeñas."
            : "Para datos móviles: sin animaciones ni scripts, con imágenes pequeñas."
        }
      >
        {light ? "Desactivar el modo liviano" : "Modo liviano"}
      </button>
    </form>
  );
}
