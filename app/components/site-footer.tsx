import { isSetLink } from "~/components/external-action";
import { site } from "~/content/site";

export function SiteFooter({ year }: { year: number }) {
  // Only the pages the community has set: no link to a platform's front page.
  const social = site.social.filter((link) => isSetLink(link.href));
  return (
    <footer className="site-footer">
      {social.length > 0 ? (
        <nav aria-label="Redes sociales">
          <ul className="social-links">
            {social.map((link) => (
              <li key={link.label}>
                <a href={link.href ?? undefined} target="_blank" rel="noopener noreferrer">
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
