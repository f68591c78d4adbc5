// Competition landing page (§2 "Competition landing page", §4). The competition an admin links at
// /admin/sitio heads it with its own name, dates, place and categories (decision 076); the events,
// store, venue, benefits and logos are the landing sections admins edit there; the fixed words
// come from app/site/copy/competition.ts. A part without data is not
// shown. The whole page is in
// the server's HTML; the 1-second loading logo is a small CSS pulse inside the hero, never an
// overlay (decision 077), so the first paint is the page itself.
import { useState } from "react";
import { ExternalAction, isActionHref } from "~/site/components/external-action";
import { LandingImage } from "~/site/components/landing-image";
import { Reveal } from "~/site/components/reveal";
import { ShaderBackground } from "~/site/components/shader-background";
import { competition, venueLabels, venueMapUrls } from "~/site/copy/competition";
import type { Row } from "~/site/sections";
import { pageTitle } from "~/site/title";
import { loadDemoSections, loadSiteSections } from "~/site/sections.server";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";
import type { Route } from "./+types/events";
import { worksWithoutScripts } from "~/site/light-mode";
import { categoryAnchor } from "~/competitions/categories";
import { competitionOnLanding } from "~/landing-events.server";

type Logo = Row<"name" | "logo" | "href">;

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const [content, demo] = await Promise.all([
    loadSiteSections(context.db),
    loadDemoSections(context.db),
  ]);
  const logos = (items: Logo[]) => items.map(({ name, logo, href }) => ({ name, logo, href }));
  // The linked events' own name, dates, place and categories (decisions 051 and 076).
  const { headline, events, categories } = await competitionOnLanding(
    context.db,
    content.competition,
    content.course,
    context.now(),
    context.config.siteTimezone,
  );
  return {
    competition: {
      tagline: content.competition.tagline,
      benefits: content.competition.benefits,
      headline,
      categories,
      events,
    },
    venue: content.venue,
    sponsors: logos(content.sponsors.sponsors),
    allies: logos(content.allies.allies),
    // Demo logos (SEED_DEMO) are said to be examples, and so is the demo's competition.
    sponsorsDemo: demo.includes("sponsors"),
    alliesDemo: demo.includes("allies"),
    competitionDemo: demo.includes("competition"),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  const { headline, tagline } = loaderData.competition;
  const title = pageTitle([headline.title, headline.dateLabel].filter(Boolean).join(", "));
  return [
    { title },
    {
      name: "description",
      content: [[headline.title, headline.dateLabel].filter(Boolean).join(", "), tagline]
        .filter(Boolean)
        .join(". "),
    },
    { property: "og:title", content: title },
    ...(tagline ? [{ property: "og:description", content: tagline }] : []),
    { property: "og:type", content: "website" },
  ];
}

function LogoRow({ items, label }: { items: Logo[]; label: string }) {
  return (
    <ul className="logo-row" aria-label={label}>
      {items.map((item, i) => (
        <li key={i}>
          {item.href ? (
            <a href={item.href} target="_blank" rel="noopener noreferrer">
              <LandingImage
                src={item.logo}
                alt={`${item.name} (se abre en una pestaña nueva)`}
                width={320}
                height={160}
                sizes="320px"
              />
            </a>
          ) : (
            <LandingImage src={item.logo} alt={item.name} width={320} height={160} sizes="320px" />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The venue map loads only when asked for: no third-party frame (or its weight) until then. */
function VenueMap({ location, image }: { location: string; image: string }) {
  const [shown, setShown] = useState(false);
  const urls = venueMapUrls(location);
  return (
    <div className="venue-map">
      {shown ? (
        <iframe
          src={urls.embed}
          title={venueLabels(location).mapTitle}
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
          width={800}
          height={450}
        />
      ) : image ? (
        <LandingImage
          src={image}
          alt=""
          width={800}
          height={450}
          sizes="(max-width: 768px) 100vw, 50vw"
        />
      ) : null}
      <p className="venue-actions">
        {shown ? null : (
          <button type="button" className="button button-small" onClick={() => setShown(true)}>
            {competition.showMapLabel}
          </button>
        )}
        <a
          className="button button-small button-ghost"
          href={urls.link}
          target="_blank"
          rel="noopener noreferrer"
        >
          {competition.openMapLabel}
          <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
        </a>
      </p>
    </div>
  );
}

export default function CompetitionPage({ loaderData }: Route.ComponentProps) {
  const {
    competition: content,
    venue,
    sponsors,
    allies,
    sponsorsDemo,
    alliesDemo,
    competitionDemo,
  } = loaderData;
  const { headline } = content;
  const hasStore = Boolean(venue.storeTitle || venue.storeText || venue.storeHref);
  const hasVenue = Boolean(venue.location);
  return (
    <div className="landing competition">
      <ShaderBackground />

      <header className="landing-hero">
        {/* §4's one-second loading logo (decision 077): it pulses in the hero for that second,
            beside content already painted, and never covers the page; still in light mode and
            under prefers-reduced-motion. */}
        <img
          className="loading-logo"
          src={competition.loadingLogo}
          alt=""
          width={56}
          height={56}
          style={{ animationDuration: `${competition.loadingMs / 2}ms` }}
        />
        {headline.dateLabel ? (
          <p className="eyebrow">
            {headline.dateIso ? (
              <time dateTime={headline.dateIso}>{headline.dateLabel}</time>
            ) : (
              headline.dateLabel
            )}
          </p>
        ) : null}
        <h1>{headline.title}</h1>
        {headline.place ? <p className="competition-place">{headline.place}</p> : null}
        {content.tagline ? <p className="lead">{content.tagline}</p> : null}
        {competitionDemo ? <DemoNote>{demoNotes.competition}</DemoNote> : null}
        {headline.eventId && content.categories.length > 0 ? (
          <ul className="competition-registration" aria-label="Categorías e inscripciones">
            {content.categories.map((c) => (
              <li key={c.id}>
                <a href={`/detalles/${headline.eventId}#${categoryAnchor(c.id)}`}>{c.name}</a>
                {c.registration ? <span className="muted">{c.registration}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
        {headline.eventId ? (
          <p>
            <a
              className="button"
              href={`/detalles/${headline.eventId}${headline.over ? "/resultados" : ""}`}
            >
              {headline.over ? competition.resultsLabel : competition.registerLabel}
            </a>
          </p>
        ) : null}
      </header>

      <div className="landing-grid">
        {content.events.length > 0 ? (
          <section
            className="landing-panel competition-events"
            aria-labelledby="competition-events-title"
          >
            <h2 id="competition-events-title">{competition.eventsTitle}</h2>
            <ul className="competition-list">
              {content.events.map((item, i) => (
                <li
                  key={i}
                  className={
                    item.href || item.competition
                      ? "competition-item"
                      : "competition-item is-pending"
                  }
                >
                  {item.competition ? (
                    <>
                      {/* A document load: the competition's page works without scripts. */}
                      <a
                        className="competition-item-link"
                        href={`/detalles/${item.competition.eventId}`}
                      >
                        <span className="competition-item-name">{item.name}</span>
                        {item.when ? (
                          <span className="competition-item-when">{item.when}</span>
                        ) : null}
                      </a>
                      {item.competition.categories.length > 0 ? (
                        <ul
                          className="category-index competition-categories"
                          aria-label={`Categorías de ${item.name}`}
                        >
                          {item.competition.categories.map((c) => (
                            <li key={c.id}>
                              <a
                                href={`/detalles/${item.competition!.eventId}#${categoryAnchor(c.id)}`}
                              >
                                {c.name}
                              </a>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </>
                  ) : item.href ? (
                    <ExternalAction
                      href={item.href}
                      className="competition-item-link"
                      label={
                        <>
                          <span className="competition-item-name">{item.name}</span>
                          {item.when ? (
                            <span className="competition-item-when">{item.when}</span>
                          ) : null}
                        </>
                      }
                    />
                  ) : (
                    <>
                      <span className="competition-item-name">{item.name}</span>
                      <span className="competition-item-when badge">
                        {item.when || competition.pendingLabel}
                      </span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {hasStore ? (
          <section className="landing-panel store-panel" aria-labelledby="store-title">
            {venue.storeImage ? (
              <LandingImage
                className="panel-image"
                src={venue.storeImage}
                alt=""
                width={800}
                height={450}
                sizes="(max-width: 768px) 100vw, 50vw"
              />
            ) : null}
            <h2 id="store-title">{venue.storeTitle || competition.storeButtonLabel}</h2>
            {venue.storeText ? <p>{venue.storeText}</p> : null}
            {isActionHref(venue.storeHref) ? (
              <ExternalAction href={venue.storeHref} label={competition.storeButtonLabel} />
            ) : (
              // No shop to send anyone to yet: say so, rather than a card that leads nowhere.
              <p className="badge">{competition.storeSoonLabel}</p>
            )}
          </section>
        ) : null}

        {hasVenue ? (
          <section className="landing-panel venue-panel" aria-labelledby="venue-title">
            <div>
              <h2 id="venue-title">{competition.venueTitle}</h2>
              <p>{venueLabels(venue.location).locationLabel}</p>
            </div>
            <VenueMap location={venue.location} image={venue.venueImage} />
          </section>
        ) : null}
      </div>

      {content.benefits.length > 0 ? (
        <Reveal>
          <section className="landing-section" aria-labelledby="benefits-title">
            <h2 id="benefits-title">{competition.benefitsTitle}</h2>
            <ol className="benefits">
              {content.benefits.map((benefit, i) => (
                <li key={i} className="benefit">
                  <span className="benefit-number" aria-hidden="true">
                    {String(i + 1).padStart(2, "0")}
                  </span>
                  <h3>{benefit.title}</h3>
                  {benefit.text ? <p className="muted">{benefit.text}</p> : null}
                </li>
              ))}
            </ol>
          </section>
        </Reveal>
      ) : null}

      {sponsors.length + allies.length > 0 ? (
        <Reveal>
          <section className="landing-section" aria-labelledby="logos-title">
            {sponsors.length > 0 ? (
              <>
                <h2 id="logos-title">{competition.sponsorsTitle}</h2>
                {sponsorsDemo ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
                <LogoRow items={sponsors} label={competition.sponsorsTitle} />
              </>
            ) : null}
            {allies.length > 0 ? (
              <>
                <h2 id={sponsors.length > 0 ? undefined : "logos-title"}>
                  {competition.alliesTitle}
                </h2>
                {alliesDemo ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
                <LogoRow items={allies} label={competition.alliesTitle} />
              </>
            ) : null}
          </section>
        </Reveal>
      ) : null}
    </div>
  );
}
