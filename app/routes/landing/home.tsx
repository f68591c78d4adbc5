// Home (§2 Home): hero, community, courses, events, articles, featured. The words, names and
// images come from app/content/home.ts; events, notes and projects from the database.
import { Link } from "react-router";
import { Accordion } from "~/components/landing/accordion";
import { Reveal } from "~/components/landing/reveal";
import { EventCard } from "~/components/events/event-card";
import { ExternalAction } from "~/components/external-action";
import { EmptyState, ItemCard } from "~/components/item-card";
import { NoteCard, ProjectCard } from "~/components/content/content-cards";
import { noteSummary, projectSummary } from "~/lib/summaries";
import { ShaderBackground } from "~/components/landing/shader-background";
import {
  articles,
  community,
  courses,
  events,
  featured,
  hero,
  type CourseCard,
  type Organisation,
} from "~/content/home";
import { site } from "~/content/site";
import { useRootData } from "~/root";
import { listUpcomingEvents } from "#server/models/event.server";
import { listLatestNotes } from "#server/models/note.server";
import { listLatestProjects } from "#server/models/project.server";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const [upcoming, notes, projects] = await Promise.all([
    listUpcomingEvents(context.db, 3),
    listLatestNotes(context.db, 3),
    listLatestProjects(context.db, 3),
  ]);
  return {
    timeZone: context.config.siteTimezone,
    events: upcoming.map((event) => ({
      id: event.id,
      nombreEvento: event.nombreEvento,
      ubicacionEvento: event.ubicacionEvento,
      tipoEvento: event.tipoEvento,
      imagenEnlace: event.imagenEnlace,
      startsAt: event.startsAt.toISOString(),
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

function OrganisationList({ items, label }: { items: Organisation[]; label: string }) {
  return (
    <ul className="logo-grid" aria-label={label}>
      {items.map((item) => (
        <li key={item.name} className="logo-card">
          <img src={item.logo} alt="" width={320} height={160} loading="lazy" decoding="async" />
          <p className="logo-card-name">
            {item.href ? (
              <a href={item.href} target="_blank" rel="noopener noreferrer">
                {item.name}
                <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
              </a>
            ) : (
              item.name
            )}
          </p>
          <p className="muted">{item.description}</p>
        </li>
      ))}
    </ul>
  );
}

function CourseCards({ items }: { items: CourseCard[] }) {
  return (
    <ul className="item-grid">
      {items.map((item) => (
        <ItemCard
          key={item.title}
          title={item.title}
          heading="h4"
          image={item.image}
          imageLabel="Curso"
          meta={item.dates}
          text={item.subtitle}
        >
          {item.href ? (
            <Link className="button button-secondary button-small" to={item.href}>
              {item.linkLabel ?? item.title}
            </Link>
          ) : null}
        </ItemCard>
      ))}
    </ul>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { timeZone, events: upcoming, notes, projects } = loaderData;
  const user = useRootData()?.user;
  const visitor = !user;
  const admin = user?.isAdmin === true;

  return (
    <div className="home landing">
      <ShaderBackground />
      <section id="hero" className="home-section hero" aria-labelledby="hero-title">
        <p className="eyebrow">{hero.eyebrow}</p>
        <h1 id="hero-title">{hero.title}</h1>
        <p className="lead">{hero.lead}</p>
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

      <section id="community" className="home-section" aria-labelledby="community-title">
        <Reveal>
          <h2 id="community-title">{community.title}</h2>
          <p className="section-intro">{community.intro}</p>
          <Accordion
            label={community.title}
            defaultOpen={community.defaultOpen}
            items={[
              {
                key: "ambassadors",
                ...community.cards.ambassadors,
                content: (
                  <ul className="leaders" aria-label="Líderes de la comunidad">
                    {community.leaders.map((leader) => (
                      <li key={leader.name} className="leader">
                        <img
                          src={leader.image}
                          alt={`Foto de ${leader.name}`}
                          width={240}
                          height={240}
                          loading="lazy"
                          decoding="async"
                        />
                        <p className="leader-name">{leader.name}</p>
                        <p className="muted">{leader.role}</p>
                      </li>
                    ))}
                  </ul>
                ),
              },
              {
                key: "allies",
                ...community.cards.allies,
                content: <OrganisationList items={community.allies} label="Aliados" />,
              },
              {
                key: "sponsors",
                ...community.cards.sponsors,
                content: (
                  <>
                    <p>{community.sponsorsIntro}</p>
                    <OrganisationList items={community.sponsors} label="Patrocinadores" />
                  </>
                ),
              },
            ]}
          />
        </Reveal>
      </section>

      <section id="courses" className="home-section" aria-labelledby="courses-title">
        <Reveal>
          <h2 id="courses-title">{courses.title}</h2>
          <p className="section-intro">{courses.intro}</p>
          <h3>{courses.currentTitle}</h3>
          <CourseCards items={courses.current} />
          <h3>{courses.pastTitle}</h3>
          <CourseCards items={courses.past} />
        </Reveal>
      </section>

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
              text={events.competition.text}
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
                {admin ? (
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
                    ended={false}
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
              {
                key: "talks",
                title: articles.talks.title,
                summary: articles.talks.summary,
                content: (
                  <div className="landing-card-text">
                    <p>{articles.talks.text}</p>
                    <ExternalAction
                      href={articles.talks.href}
                      label={articles.talks.linkLabel}
                      className="button button-secondary"
                    />
                  </div>
                ),
              },
              {
                key: "news",
                title: articles.news.title,
                summary: articles.news.summary,
                content: (
                  <>
                    {notes.length === 0 ? (
                      <EmptyState title={articles.news.empty}>
                        {admin ? (
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
              {admin ? (
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
