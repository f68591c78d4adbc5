import { useLocation } from "react-router";
import { site } from "~/site/copy/site";
import { LIGHT_MODE_PATH } from "~/site/light-mode";
import type { SocialLink } from "~/site/sections";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";

/**
 * The footer: the community's social links (those an admin has set at /admin/sitio), said to be
 * examples while they are the demo's, the 'Modo liviano' switch (decision 049), and ©.
 */
export function SiteFooter({
  year,
  social,
  socialDemo = false,
  light = false,
}: {
  year: number;
  social: readonly SocialLink[];
  socialDemo?: boolean;
  light?: boolean;
}) {
  const location = useLocation();
  return (
    <footer className="site-footer">
      {social.length > 0 ? (
        <nav aria-label="Redes sociales">
          <ul className="social-links">
            {social.map((link) => (
              <li key={link.href}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {link.label}
                  <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                </a>
              </li>
            ))}
          </ul>
          {socialDemo ? <DemoNote>{demoNotes.footer}</DemoNote> : null}
        </nav>
      ) : null}
      {/* A whole page load, not a client navigation: the page comes back with or without its
          scripts. */}
      <form className="light-mode" method="post" action={LIGHT_MODE_PATH}>
        <input type="hidden" name="volver" value={`${location.pathname}${location.search}`} />
        <input type="hidden" name="modo" value={light ? "normal" : "liviano"} />
        <button
          type="submit"
          className="button button-small button-ghost"
          aria-describedby="modo-liviano-ayuda"
        >
          {light ? "Desactivar el modo liviano" : "Modo liviano"}
        </button>
        <span id="modo-liviano-ayuda" className="light-mode-hint">
          {light
            ? "Activo: sin animaciones ni scripts, con imágenes pequeñas."
            : "Para datos móviles: sin animaciones ni scripts, con imágenes pequeñas."}
        </span>
      </form>
      <p className="copyright">
        © {year} {site.name}. {site.tagline}.
      </p>
    </footer>
  );
}
