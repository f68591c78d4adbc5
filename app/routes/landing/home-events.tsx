// Home's events: the competition's card and the next events.
import { Link } from "react-router";
import { EventCard } from "~/events/components/event-card";
import { Reveal } from "~/site/components/reveal";
import { events } from "~/site/copy/home";
import { EmptyState, ItemCard } from "~/ui/item-card";
import type { Route } from "./+types/home";

export function EventsSection({
  upcoming,
  competitionText,
  timeZone,
  mayPublishEvents,
}: {
  upcoming: Route.ComponentProps["loaderData"]["events"];
  competitionText: string;
  timeZone: string;
  mayPublishEvents: boolean;
}) {
  return (
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
  );
}
