import { site } from "~/content/site";

export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Redes sociales">
        <ul className="social-links">
          {site.social.map((link) => (
            <li key={link.label}>
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
                <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="copyright">
        © {year} {site.name}. {site.tagline}.
      </p>
    </footer>
  );
}
