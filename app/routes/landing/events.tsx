// Competition landing page (§2 "Competition landing page", §4): Clash Robotics Edición 2025.
// The words, dates, logos and links come from app/content/competition.ts. The whole page is in
// the server's HTML; the 1-second loading logo is only a CSS overlay on top of it (none under
// prefers-reduced-motion), so search engines and slow phones get the content at once.
import { useState } from "react";
import { Link } from "react-router";
import { ExternalAction } from "~/components/external-action";
import { Reveal } from "~/components/landing/reveal";
import { ShaderBackground } from "~/components/landing/shader-background";
import { competition, venueMapUrls, type Logo } from "~/content/competition";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/events";

export function meta(_: Route.MetaArgs) {
  const title = pageTitle(`${competition.edition}, ${competition.dateLabel}`);
  return [
    { title },
    {
      name: "description",
      content: `${competition.edition}, ${competition.dateLabel}. ${competition.tagline}`,
    },
    { property: "og:title", content: title },
    { property: "og:description", content: competition.tagline },
    { property: "og:type", content: "website" },
  ];
}

function LogoRow({ items, label }: { items: Logo[]; label: string }) {
  return (
    <ul className="logo-row" aria-label={label}>
      {items.map((item) => (
        <li key={item.name}>
          {item.href ? (
            <a href={item.href} target="_blank" rel="noopener noreferrer">
              <img
                src={item.logo}
                alt={`${item.name} (se abre en una pestaña nueva)`}
                width={320}
                height={160}
                loading="lazy"
                decoding="async"
              />
            </a>
          ) : (
            <img
              src={item.logo}
              alt={item.name}
              width={320}
              height={160}
              loading="lazy"
              decoding="async"
            />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The venue map loads only when asked for: no third-party frame (or its weight) until then. */
function VenueMap() {
  const [shown, setShown] = useState(false);
  const urls = venueMapUrls(competition.venue.location);
  return (
    <div className="venue-map">
      {shown ? (
        <iframe
          src={urls.embed}
          title={competition.venue.mapTitle}
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
          width={800}
          height={450}
        />
      ) : (
        <img
          src={competition.venue.image}
          alt=""
          width={800}
          height={450}
          loading="lazy"
          decoding="async"
        />
      )}
      <p className="venue-actions">
        {shown ? null : (
          <button type="button" className="button button-small" onClick={() => setShown(true)}>
            {competition.venue.showMapLabel}
          </button>
        )}
        <a
          className="button button-small button-ghost"
          href={urls.link}
          target="_blank"
          rel="noopener noreferrer"
        >
          {competition.venue.openMapLabel}
          <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
        </a>
      </p>
    </div>
  );
}

export default function CompetitionPage() {
  return (
    <div className="landing competition">
      <div
        className="loading-overlay"
        aria-hidden="true"
        style={{ animationDelay: `${competition.loadingMs}ms` }}
      >
        <img src={competition.loadingLogo} alt="" width={96} height={96} />
      </div>
      <ShaderBackground />

      <header className="landing-hero">
        <p className="eyebrow">
          <time dateTime={competition.dateIso}>{competition.dateLabel}</time>
        </p>
        <h1>{competition.edition}</h1>
        <p className="lead">{competition.tagline}</p>
      </header>

      <div className="landing-grid">
        <section
          className="landing-panel competition-events"
          aria-labelledby="competition-events-title"
        >
          <h2 id="competition-events-title">{competition.eventsTitle}</h2>
          <ul className="competition-list">
            {competition.events.map((item) => (
              <li
                key={item.name}
                className={item.href ? "competition-item" : "competition-item is-pending"}
              >
                {item.href ? (
                  <Link to={item.href} className="competition-item-link">
                    <span className="competition-item-name">{item.name}</span>
                    <span className="competition-item-when">{item.when}</span>
                  </Link>
                ) : (
                  <>
                    <span className="competition-item-name">{item.name}</span>
                    <span className="competition-item-when badge">{item.when}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>

        <div className="landing-stack">
          <section className="landing-panel" aria-labelledby="store-title">
            <img
              className="panel-image"
              src={competition.store.image}
              alt=""
              width={800}
              height={450}
              loading="lazy"
              decoding="async"
            />
            <h2 id="store-title">{competition.store.title}</h2>
            <p>{competition.store.text}</p>
            <ExternalAction href={competition.store.href} label={competition.store.buttonLabel} />
          </section>

          <section className="landing-panel" aria-labelledby="venue-title">
            <h2 id="venue-title">{competition.venue.title}</h2>
            <p>{competition.venue.locationLabel}</p>
            <VenueMap />
          </section>
        </div>
      </div>

      <Reveal>
        <section className="landing-section" aria-labelledby="benefits-title">
          <h2 id="benefits-title">{competition.benefitsTitle}</h2>
          <ol className="benefits">
            {competition.benefits.map((benefit, i) => (
              <li key={benefit.title} className="benefit">
                <span className="benefit-number" aria-hidden="true">
                  {String(i + 1).padStart(2, "0")}
                </span>
                <h3>{benefit.title}</h3>
                <p className="muted">{benefit.text}</p>
              </li>
            ))}
          </ol>
        </section>
      </Reveal>

      <Reveal>
        <section className="landing-section" aria-labelledby="sponsors-title">
          <h2 id="sponsors-title">{competition.sponsorsTitle}</h2>
          <LogoRow items={competition.sponsors} label={competition.sponsorsTitle} />
          <h2>{competition.alliesTitle}</h2>
          <LogoRow items={competition.allies} label={competition.alliesTitle} />
        </section>
      </Reveal>
    </div>
  );
}
