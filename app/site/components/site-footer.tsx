import { site } from "~/site/copy/site";
import type { SocialLink } from "~/site/sections";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";

/**
 * The footer: the community's social links (those an admin has set at /admin/sitio), said to be
 * examples while they are the demo's, and ©. The 'Modo liviano' switch is in the menu at the top
 * (decision 077).
 */
export function SiteFooter({
  year,
  social,
  socialDemo = false,
}: {
  year: number;
  social: readonly SocialLink[];
  socialDemo?: boolean;
}) {
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
      <p className="copyright">
        © {year} {site.name}. {site.tagline}.
      </p>
    </footer>
  );
}
