import { site } from "~/site/copy/site";
import type { SocialLink } from "~/site/sections";

/** The footer: the community's social links (those an admin has set at /admin/sitio) and ©. */
export function SiteFooter({ year, social }: { year: number; social: readonly SocialLink[] }) {
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
        </nav>
      ) : null}
      <p className="copyright">
        © {year} {site.name}. {site.tagline}.
      </p>
    </footer>
  );
}
