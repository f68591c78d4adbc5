// Home (§2 Home): hero, community, courses, events, articles, featured. The words, names and
// images come from app/content/home.ts; events, notes and projects from the database.
import { Link } from "react-router";
import { Accordion } from "~/components/landing/accordion";
import { Reveal } from "~/components/landing/reveal";
import { safeImageUrl } from "~/lib/checks";
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
import { formatDate, formatDateTime } from "~/lib/time";
import { useRootData } from "~/root";
import { listUpcomingEvents } from "#server/models/event.server";
import { listLatestNotes } from "#server/models/note.server";
import { listLatestProjects } from "#server/models/project.server";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const upcoming = await listUpcomingEvents(context.db, 3);
  const notes = await listLatestNotes(context.db, 3);
  const projects = await listLatestProjects(context.db, 3);
  return {
    timeZone: context.config.siteTimezone,
    events: upcoming.map((event) => ({
      id: event.id,
      nombreEvento: event.nombreEvento,
      ubicacionEvento: event.ubicacionEvento,
      tipoEvento: event.tipoEvento,
      image: safeImageUrl(event.imagenEnlace),
      startsAt: event.startsAt.toISOString(),
    })),
    notes: notes.map((note) => ({
      id: note.id,
      titulo: note.titulo,
      texto: note.texto,
      image: safeImageUrl(note.enlaceImagen),
      createdAt: note.createdAt.toISOString(),
    })),
    projects: projects.map((project) => ({
      id: project.id,
      titulo: project.titulo,
      descripcion: project.descripcion,
      image: safeImageUrl(project.enlacesImagen.find((url) => safeImageUrl(url) !== null)),
    })),
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

/** An image, or a calm gradient with the item's initial when there is none. */
function CardImage({ src, title }: { src: string | null; title: string }) {
  if (src)
    return (
      <img
        className="card-image"
        src={src}
        alt=""
        width={800}
        height={450}
        loading="lazy"
        decoding="async"
      />
    );
  return (
    <div className="card-image card-image-placeholder" aria-hidden="true">
      <span>{title.trim().charAt(0).toUpperCase() || "A"}</span>
    </div>
  );
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
    <ul className="card-grid">
      {items.map((item) => (
        <li key={item.title} className="landing-card">
          <img
            className="card-image"
            src={item.image}
            alt=""
            width={800}
            height={450}
            loading="lazy"
            decoding="async"
          />
          <div className="landing-card-body">
            <h4>{item.title}</h4>
            <p className="muted">{item.subtitle}</p>
            <p className="card-meta">{item.dates}</p>
            {item.href ? (
              <Link className="button button-small" to={item.href}>
                {item.linkLabel ?? item.title}
              </Link>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { timeZone, events: upcoming, notes, projects } = loaderData;
  const visitor = !useRootData()?.user;

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
            <Link className="button button-ghost" to={hero.joinAction.href}>
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
          <ul className="card-grid">
            <li className="landing-card landing-card-feature">
              <img
                className="card-image"
                src={events.competition.image}
                alt=""
                width={800}
                height={450}
                loading="lazy"
                decoding="async"
              />
              <div className="landing-card-body">
                <h3>{events.competition.title}</h3>
                <p>{events.competition.text}</p>
                <Link className="button button-small" to={events.competition.href}>
                  {events.competition.linkLabel}
                </Link>
              </div>
            </li>
          </ul>
          <h3>{events.upcomingTitle}</h3>
          {upcoming.length === 0 ? (
            <p className="muted">{events.noUpcoming}</p>
          ) : (
            <ul className="card-grid">
              {upcoming.map((event) => (
                <li key={event.id} className="landing-card">
                  <CardImage src={event.image} title={event.nombreEvento} />
                  <div className="landing-card-body">
                    <h4>
                      <Link to={`/detalles/${event.id}`} className="card-link">
                        {event.nombreEvento}
                      </Link>
                    </h4>
                    <p className="card-meta">{formatDateTime(event.startsAt, timeZone)}</p>
                    <p className="muted">
                      {event.ubicacionEvento} · {event.tipoEvento}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p>
            <Link className="button button-ghost" to={events.allHref}>
              {events.allLabel}
            </Link>
          </p>
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
                  <ul className="card-grid">
                    {articles.techHistory.items.map((item) => (
                      <li key={item.title} className="landing-card landing-card-text">
                        <h4>
                          <a
                            href={item.href}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="card-link"
                          >
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
                  <div className="landing-card landing-card-text">
                    <p>{articles.talks.text}</p>
                    <a
                      className="button button-small"
                      href={articles.talks.href}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      {articles.talks.linkLabel}
                      <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                    </a>
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
                      <p className="muted">{articles.news.empty}</p>
                    ) : (
                      <ul className="card-grid">
                        {notes.map((note) => (
                          <li key={note.id} className="landing-card">
                            <CardImage src={note.image} title={note.titulo} />
                            <div className="landing-card-body">
                              <h4>
                                <Link to={`/notas/${note.id}`} className="card-link">
                                  {note.titulo}
                                </Link>
                              </h4>
                              <p className="card-meta">{formatDate(note.createdAt, timeZone)}</p>
                              <p className="card-text">{note.texto}</p>
                            </div>
                          </li>
                        ))}
                      </ul>
                    )}
                    <p>
                      <Link className="button button-ghost" to={articles.news.allHref}>
                        {articles.news.allLabel}
                      </Link>
                    </p>
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
            <p className="muted">{featured.empty}</p>
          ) : (
            <ul className="card-grid">
              {projects.map((project) => (
                <li key={project.id} className="landing-card">
                  <CardImage src={project.image} title={project.titulo} />
                  <div className="landing-card-body">
                    <h3>
                      <Link to={`/proyectos/${project.id}`} className="card-link">
                        {project.titulo}
                      </Link>
                    </h3>
                    <p className="card-text">{project.descripcion}</p>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p>
            <Link className="button button-ghost" to={featured.allHref}>
              {featured.allLabel}
            </Link>
          </p>
        </Reveal>
      </section>
    </div>
  );
}
