import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { homeSections, site, siteAreas } from "~/site/copy/site";
import { UserMenu, type MenuUser } from "~/members/components/user-menu";
import { LightModeSwitch } from "~/site/components/light-mode-switch";

/**
 * §2: the section whose top is above the scroll position plus this offset is the one in view. The
 * 100 px count from the bottom of the site's bar; the home's own row of section links, under it
 * (decision 077), adds its height.
 */
const NAV_HIGHLIGHT_OFFSET = 100;
const SUBNAV_HEIGHT = 44;

function inArea(pathname: string, paths: readonly string[]) {
  return paths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

function isHome(pathname: string) {
  return pathname === "/" || pathname === "/inicio";
}

function useSectionInView(enabled: boolean, sections: readonly string[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) {
      setActive(null);
      return;
    }
    let frame = 0;
    const update = () => {
      frame = 0;
      const position = window.scrollY + NAV_HIGHLIGHT_OFFSET + SUBNAV_HEIGHT;
      let current: string | null = null;
      for (const id of sections) {
        const element = document.getElementById(id);
        if (element && element.getBoundingClientRect().top + window.scrollY <= position)
          current = id;
      }
      setActive(current);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    // The first reading waits for the next frame, when the page is laid out anyway.
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [enabled, sections]);
  return active;
}

function MenuIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
      <path
        d="M3 6h18M3 12h18M3 18h18"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function SiteHeader({
  user,
  sections,
  scripts = true,
  light = false,
}: {
  /** Whether the page is light (decision 049): the menu's switch turns it off. */
  light?: boolean;
  /** False when the page is sent without scripts (light mode): menus that need none. */
  scripts?: boolean;
  user: MenuUser | null;
  /** The home page's sections that have something to show (a section without data is not). */
  sections: readonly string[];
}) {
  const location = useLocation();
  const home = isHome(location.pathname);
  const active = useSectionInView(home, sections);
  const [navOpen, setNavOpen] = useState(false);

  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setNavOpen(false), [location.pathname, location.hash]);

  // The phone menu closes on Escape and gives focus back to its button.
  useEffect(() => {
    if (!navOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setNavOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [navOpen]);

  // The site's own areas (decision 077): one list, in the bar or behind the phone's menu button,
  // with the light-mode switch after it. The home's sections are the home's own row, below.
  const areas = (
    <>
      <ul className="site-nav-areas">
        {siteAreas.map((area) => {
          const current = inArea(location.pathname, area.paths);
          return (
            <li key={area.to}>
              <Link to={area.to} aria-current={current ? "page" : undefined}>
                {area.label}
              </Link>
            </li>
          );
        })}
      </ul>
      <LightModeSwitch light={light} />
    </>
  );

  const homeNav = home ? (
    <nav className="home-subnav" aria-label="Secciones de la página de inicio">
      <ul>
        {homeSections
          .filter((section) => sections.includes(section.id))
          .map((section) => (
            <li key={section.id}>
              <a
                href={`/#${section.id}`}
                aria-current={active === section.id ? "location" : undefined}
                onClick={(event) => {
                  const target = document.getElementById(section.id);
                  if (target) {
                    event.preventDefault();
                    target.scrollIntoView({ behavior: "smooth", block: "start" });
                    history.replaceState(null, "", `#${section.id}`);
                  }
                }}
              >
                {section.label}
              </a>
            </li>
          ))}
      </ul>
    </nav>
  ) : null;

  return (
    <header className={home ? "site-header has-subnav" : "site-header"}>
      <div className="site-header-inner">
        <Link
          to="/"
          className="logo"
          aria-label={`${site.name}, inicio`}
          onClick={(event) => {
            if (home) {
              event.preventDefault();
              window.scrollTo({ top: 0, behavior: "smooth" });
            }
          }}
        >
          <img src="/logo.svg" alt="" width={36} height={36} />
          <span>{site.name}</span>
        </Link>
        {scripts ? (
          <>
            <button
              ref={toggleRef}
              type="button"
              className="nav-toggle"
              aria-expanded={navOpen}
              aria-controls="site-nav"
              onClick={() => setNavOpen((open) => !open)}
            >
              <span className="visually-hidden">Menú del sitio</span>
              <MenuIcon />
            </button>
            <nav
              id="site-nav"
              className={navOpen ? "site-nav open" : "site-nav"}
              aria-label="Sitio"
            >
              {areas}
            </nav>
            {/* A browser with JavaScript off on a page with scripts: the button above cannot
                open, so on a phone this disclosure stands in for it (the button is hidden by
                `@media (scripting: none)`); with JavaScript on, the browser ignores it. */}
            <noscript>
              <details className="nav-disclosure">
                <summary className="nav-toggle">
                  <span className="visually-hidden">Menú del sitio</span>
                  <MenuIcon />
                </summary>
                <nav className="site-nav open" aria-label="Sitio">
                  {areas}
                </nav>
              </details>
            </noscript>
          </>
        ) : (
          // Without scripts (light mode, decision 049) the phone's menu is a disclosure the
          // browser opens by itself; wider screens show the same links in the bar.
          <>
            <details className="nav-disclosure">
              <summary className="nav-toggle">
                <span className="visually-hidden">Menú del sitio</span>
                <MenuIcon />
              </summary>
              <nav className="site-nav open" aria-label="Sitio">
                {areas}
              </nav>
            </details>
            <nav className="site-nav site-nav-wide" aria-label="Sitio">
              {areas}
            </nav>
          </>
        )}
        <div className="session-area">
          {user ? (
            <UserMenu user={user} scripts={scripts} />
          ) : (
            <Link className="button button-small" to="/login">
              Iniciar Sesión
            </Link>
          )}
        </div>
      </div>
      {homeNav}
    </header>
  );
}
