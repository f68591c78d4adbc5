// Home (§2 Home): hero, community, courses, events, articles, featured. The fixed words come from
// app/site/copy/home.ts; the hero, people, logos, courses and links from the landing sections admins
// edit at /admin/sitio; events, notes and projects from what admins publish. A section or button
// without data is not shown.
import { formatBs } from "~/payments/money";
import { Link } from "react-router";
import { Accordion } from "~/site/components/accordion";
import { LandingImage } from "~/site/components/landing-image";
import { Reveal } from "~/site/components/reveal";
import { EventCard } from "~/events/components/event-card";
import { ExternalAction } from "~/site/components/external-action";
import { EmptyState, ItemCard } from "~/ui/item-card";
import { NoteCard, ProjectCard } from "~/publications/components/publication-cards";
import { noteSummary, projectSummary } from "~/publications/summaries";
import { ShaderBackground } from "~/site/components/shader-background";
import { articles, community, courses, events, featured, hero } from "~/site/copy/home";
import { site } from "~/site/copy/site";
import { homeSectionsShown, socialLinks, type Row } from "~/site/sections";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { loadDemoSections, loadSiteSections } from "~/site/sections.server";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";
import { eventState, getEvent, listUpcomingEvents } from "~/events/event.server";
import { listLatestNotes } from "~/publications/note.server";
import { listLatestProjects } from "~/publications/project.server";
import type { Route } from "./+types/home";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const now = context.now();
  const [upcoming, notes, projects, content, demo] = await Promise.all([
    listUpcomingEvents(context.db, 3, now),
    listLatestNotes(context.db, 3),
    listLatestProjects(context.db, 3),
    loadSiteSections(context.db),
    loadDemoSections(context.db),
  ]);
  const { edition, dateLabel, tagline } = content.competition;
  return {
    hero: content.hero,
    leaders: content.leaders.leaders,
    allies: content.allies.allies,
    sponsors: content.sponsors,
    courses: {
      current: await withCourseEvents(content.courses.current, context),
      past: content.courses.past,
    },
    competitionText: [[edition, dateLabel].filter(Boolean).join(", "), tagline]
      .filter(Boolean)
      .join(": "),
    // Our Talks opens the community's channel: the YouTube link among the social links.
    talksHref: socialLinks(content.social).find((l) => l.label === "YouTube")?.href ?? null,
    shown: homeSectionsShown(content),
    // The sections still holding the demo's content, marked as such on the page.
    demo,
    timeZone: context.config.siteTimezone,
    events: upcoming.map((event) => ({
      id: event.id,
      nombreEvento: event.nombreEvento,
      ubicacionEvento: event.ubicacionEvento,
      tipoEvento: event.tipoEvento,
      imagenEnlace: event.imagenEnlace,
      startsAt: event.startsAt.toISOString(),
      going: event.going,
      sessions: event.sessions,
      capacity: event.capacity,
      state: eventState(event, now),
    })),
    notes: notes.map(noteSummary),
    projects: projects.map(projectSummary),
  };
}

export function meta(_: Route.MetaArgs) {
  const title = `${site.name} — ${site.tagline}`;
  return [
    { title },
    { name: "description", content: site.description },
    { property: "og:title", content: title },
    { property: "og:description", content: site.description },
    { property: "og:type", content: "website" },
  ];
}

type Organisation = Row<"name" | "description" | "logo" | "href">;
type CourseCard = Row<"title" | "subtitle" | "dates" | "image" | "href" | "linkLabel"> & {
  /** The site's event the card registers in (issue 35), with its price; null for none. */
  event?: { id: string; price: string } | null;
};

/**
 * A current course card that names one of the site's events registers in it (issue 35): its
 * button leads to the event's page and the card shows the price. An event gone or over is as none.
 */
async function withCourseEvents(
  rows: readonly (Row<"title" | "subtitle" | "dates" | "image" | "href" | "linkLabel"> & {
    eventId?: string;
  })[],
  context: Route.LoaderArgs["context"],
): Promise<CourseCard[]> {
  const now = context.now();
  return Promise.all(
    rows.map(async (row) => {
      const event = row.eventId ? await getEvent(context.db, row.eventId) : null;
      const open = event && event.endsAt > now ? event : null;
      return {
        ...row,
        event: open
          ? { id: open.id, price: open.priceCents > 0 ? formatBs(open.priceCents) : "Gratis" }
          : null,
      };
    }),
  );
}

function OrganisationList({ items, label }: { items: Organisation[]; label: string }) {
  return (
    <ul className="logo-grid" aria-label={label}>
      {items.map((item, i) => (
        <li key={i} className="logo-card">
          <LandingImage src={item.logo} alt="" width={320} height={160} sizes="320px" />
          <p className="logo-card-name">
            {item.href ? (
              <ExternalAction href={item.href} label={item.name} className={null} />
            ) : (
              item.name
            )}
          </p>
          {item.description ? <p className="muted">{item.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function CourseCards({ items }: { items: CourseCard[] }) {
  return (
    <ul className="item-grid">
      {items.map((item, i) => (
        <ItemCard
          key={i}
          title={item.title}
          heading="h4"
          image={item.image || null}
          imageLabel="Curso"
          meta={[item.dates, item.event?.price].filter(Boolean).join(" · ") || undefined}
          text={item.subtitle || undefined}
        >
          {item.event ? (
            <Link
              to={`/detalles/${item.event.id}`}
              className="button button-secondary button-small"
              aria-label={`${item.linkLabel || "INSCRÍBETE"}: ${item.title}`}
            >
              {item.linkLabel || "INSCRÍBETE"}
            </Link>
          ) : item.href ? (
            <ExternalAction
              href={item.href}
              label={item.linkLabel || item.title}
              className="button button-secondary button-small"
            />
          ) : null}
        </ItemCard>
      ))}
    </ul>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const {
    timeZone,
    events: upcoming,
    notes,
    projects,
    hero: heroSection,
    leaders,
    allies,
    sponsors,
    courses: courseLists,
    competitionText,
    talksHref,
  } = loaderData;
  const shown = new Set(loaderData.shown);
  const demo = new Set<string>(loaderData.demo);
  const communityCards = [
    leaders.length > 0
      ? {
          key: "ambassadors",
          ...community.cards.ambassadors,
          content: (
            <>
              {demo.has("leaders") ? <DemoNote>{demoNotes.leaders}</DemoNote> : null}
              <ul className="leaders" aria-label="Líderes de la comunidad">
                {leaders.map((leader, i) => (
                  <li key={i} className="leader">
                    <LandingImage
                      src={leader.image}
                      alt={`Foto de ${leader.name}`}
                      width={240}
                      height={240}
                      sizes="240px"
                    />
                    <p className="leader-name">{leader.name}</p>
                    {leader.role ? <p className="muted">{leader.role}</p> : null}
                  </li>
                ))}
              </ul>
            </>
          ),
        }
      : null,
    allies.length > 0
      ? {
          key: "allies",
          ...community.cards.allies,
          content: (
            <>
              {demo.has("allies") ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
              <OrganisationList items={allies} label="Aliados" />
            </>
          ),
        }
      : null,
    sponsors.sponsors.length > 0
      ? {
          key: "sponsors",
          ...community.cards.sponsors,
          content: (
            <>
              {demo.has("sponsors") ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
              {sponsors.intro ? <p>{sponsors.intro}</p> : null}
              <OrganisationList items={sponsors.sponsors} label="Patrocinadores" />
            </>
          ),
        }
      : null,
  ].filter((card) => card !== null);
  const user = useRootData()?.user;
  const visitor = !user;
  // What the buttons lead to, asked of the capability table as their pages ask it (decision 071).
  const mayPublishEvents = may(user, "event.create");
  const mayPublish = may(user, "publications.manage");

  return (
    <div className="home landing">
      <ShaderBackground />
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

      {shown.has("community") ? (
        <section id="community" className="home-section" aria-labelledby="community-title">
          <Reveal>
            <h2 id="community-title">{community.title}</h2>
            <p className="section-intro">{community.intro}</p>
            <Accordion
              label={community.title}
              defaultOpen={communityCards[0]?.key ?? ""}
              items={communityCards}
            />
          </Reveal>
        </section>
      ) : null}

      {shown.has("courses") ? (
        <section id="courses" className="home-section" aria-labelledby="courses-title">
          <Reveal>
            <h2 id="courses-title">{courses.title}</h2>
            <p className="section-intro">{courses.intro}</p>
            {courseLists.current.length > 0 ? (
              <>
                <h3>{courses.currentTitle}</h3>
                <CourseCards items={courseLists.current} />
              </>
            ) : null}
            {courseLists.past.length > 0 ? (
              <>
                <h3>{courses.pastTitle}</h3>
                <CourseCards items={courseLists.past} />
              </>
            ) : null}
          </Reveal>
        </section>
      ) : null}

      <section id="events" className="home-section" aria-labelledby="events-title">
        <Reveal>
          <h2 id="events-title">{events.title}</h2>
          <p className="section-intro">{events.intro}</p>
          <ul className="item-grid">
            <ItemCard
              feature
              title={events.competition.title}
              image={events.competition.image}
              imageLabel="Competencia"
              text={competitionText}
            >
              <Link className="button" to={events.competition.href}>
                {events.competition.linkLabel}
              </Link>
            </ItemCard>
          </ul>
          <h3>{events.upcomingTitle}</h3>
          {upcoming.length === 0 ? (
            <EmptyState title={events.noUpcoming}>
              <p className="button-row">
                <Link className="button button-secondary" to="/eventos#past-title">
                  Ver eventos pasados
                </Link>
                {mayPublishEvents ? (
                  <Link className="button" to="/admin">
                    Publicar un evento
                  </Link>
                ) : null}
              </p>
            </EmptyState>
          ) : (
            <>
              <ul className="item-grid">
                {upcoming.map((event) => (
                  <EventCard
                    key={event.id}
                    event={event}
                    timeZone={timeZone}
                    state={event.state}
                    heading="h4"
                  />
                ))}
              </ul>
              <p className="landing-more">
                <Link className="button button-secondary" to={events.allHref}>
                  {events.allLabel}
                </Link>
              </p>
            </>
          )}
        </Reveal>
      </section>

      <section id="articles" className="home-section" aria-labelledby="articles-title">
        <Reveal>
          <h2 id="articles-title">{articles.title}</h2>
          <p className="section-intro">{articles.intro}</p>
          <Accordion
            label={articles.title}
            defaultOpen={articles.defaultOpen}
            items={[
              {
                key: "history",
                title: articles.techHistory.title,
                summary: articles.techHistory.summary,
                content: (
                  <ul className="item-grid">
                    {articles.techHistory.items.map((item) => (
                      <li key={item.title} className="landing-card-text">
                        <h4>
                          <a href={item.href} target="_blank" rel="noopener noreferrer">
                            {item.title}
                            <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                          </a>
                        </h4>
                        <p className="muted">{item.text}</p>
                      </li>
                    ))}
                  </ul>
                ),
              },
              ...(talksHref
                ? [
                    {
                      key: "talks" as const,
                      title: articles.talks.title,
                      summary: articles.talks.summary,
                      content: (
                        <div className="landing-card-text">
                          {demo.has("social") ? <DemoNote>{demoNotes.talks}</DemoNote> : null}
                          <p>{articles.talks.text}</p>
                          <ExternalAction
                            href={talksHref}
                            label={articles.talks.linkLabel}
                            className="button button-secondary"
                          />
                        </div>
                      ),
                    },
                  ]
                : []),
              {
                key: "news",
                title: articles.news.title,
                summary: articles.news.summary,
                content: (
                  <>
                    {notes.length === 0 ? (
                      <EmptyState title={articles.news.empty}>
                        {mayPublish ? (
                          <Link className="button" to="/projectsandnotes">
                            Publicar una nota
                          </Link>
                        ) : null}
                      </EmptyState>
                    ) : (
                      <>
                        <ul className="item-grid">
                          {notes.map((note) => (
                            <NoteCard key={note.id} note={note} timeZone={timeZone} heading="h4" />
                          ))}
                        </ul>
                        <p className="landing-more">
                          <Link className="button button-secondary" to={articles.news.allHref}>
                            {articles.news.allLabel}
                          </Link>
                        </p>
                      </>
                    )}
                  </>
                ),
              },
            ]}
          />
        </Reveal>
      </section>

      <section id="featured" className="home-section" aria-labelledby="featured-title">
        <Reveal>
          <h2 id="featured-title">{featured.title}</h2>
          <p className="section-intro">{featured.intro}</p>
          {projects.length === 0 ? (
            <EmptyState title={featured.empty}>
              {mayPublish ? (
                <Link className="button" to="/projectsandnotes">
                  Publicar un proyecto
                </Link>
              ) : null}
            </EmptyState>
          ) : (
            <>
              <ul className="item-grid">
                {projects.map((project) => (
                  <ProjectCard key={project.id} project={project} timeZone={timeZone} />
                ))}
              </ul>
              <p className="landing-more">
                <Link className="button button-secondary" to={featured.allHref}>
                  {featured.allLabel}
                </Link>
              </p>
            </>
          )}
        </Reveal>
      </section>
    </div>
  );
}
