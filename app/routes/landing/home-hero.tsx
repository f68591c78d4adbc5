// Home's hero: the title and lead admins edit at /admin/sitio, with the join button for visitors.
import { Link } from "react-router";
import { hero } from "~/site/copy/home";
import type { Route } from "./+types/home";

export function HeroSection({
  heroSection,
  visitor,
}: {
  heroSection: Route.ComponentProps["loaderData"]["hero"];
  visitor: boolean;
}) {
  return (
    <section id="hero" className="home-section hero" aria-labelledby="hero-title">
      {heroSection.eyebrow ? <p className="eyebrow">{heroSection.eyebrow}</p> : null}
      <h1 id="hero-title">{heroSection.title}</h1>
      {heroSection.lead ? <p className="lead">{heroSection.lead}</p> : null}
      <p className="hero-actions">
        <a className="button" href={hero.primaryAction.href}>
          {hero.primaryAction.label}
        </a>
        {visitor ? (
          <Link className="button button-secondary" to={hero.joinAction.href}>
            {hero.joinAction.label}
          </Link>
        ) : null}
      </p>
    </section>
  );
}
