import { Link } from "react-router";
import { EventCard } from "~/components/events/event-card";
import { countPastEvents, listPastEvents, listUpcomingEvents } from "#server/models/event.server";
import type { Route } from "./+types/list";

const UPCOMING_LIMIT = 100;
const PAST_PAGE_SIZE = 24;

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = new Date();
  const requested = Number(new URL(request.url).searchParams.get("pasados") ?? "1");
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1;
  const [upcoming, past, pastTotal] = await Promise.all([
    listUpcomingEvents(context.db, UPCOMING_LIMIT, now),
    listPastEvents(context.db, { limit: PAST_PAGE_SIZE, offset: (page - 1) * PAST_PAGE_SIZE }, now),
    countPastEvents(context.db, now),
  ]);
  const toJson = (e: (typeof upcoming)[number]) => ({ ...e, startsAt: e.startsAt.toISOString() });
  return {
    upcoming: upcoming.map(toJson),
    past: past.map(toJson),
    page,
    pageCount: Math.max(1, Math.ceil(pastTotal / PAST_PAGE_SIZE)),
    timeZone: context.config.siteTimezone,
  };
}

export function meta() {
  return [
    { title: "Eventos — Ayllu" },
    { name: "description", content: "Talleres, charlas y competencias de robótica y tecnología libre de la comunidad Ayllu en Bolivia." },
  ];
}

export default function EventsList({ loaderData }: Route.ComponentProps) {
  const { upcoming, past, page, pageCount, timeZone } = loaderData;
  return (
    <div className="page">
      <h1>Eventos</h1>
      <section aria-labelledby="upcoming-title" className="events-section">
        <h2 id="upcoming-title">Próximos eventos</h2>
        {upcoming.length === 0 ? (
          <p>No hay eventos próximos por ahora.</p>
        ) : (
          <ul className="event-grid">
            {upcoming.map((event) => (
              <EventCard key={event.id} event={event} timeZone={timeZone} ended={false} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="past-title" className="events-section">
        <h2 id="past-title">Eventos pasados</h2>
        {past.length === 0 ? (
          <p>No hay eventos pasados.</p>
        ) : (
          <ul className="event-grid">
            {past.map((event) => (
              <EventCard key={event.id} event={event} timeZone={timeZone} ended />
            ))}
          </ul>
        )}
        {pageCount > 1 ? (
          <nav className="pagination" aria-label="Páginas de eventos pasados">
            {page > 1 ? <Link to={`/eventos?pasados=${page - 1}`}>Anterior</Link> : null}
            <span>{`Página ${page} de ${pageCount}`}</span>
            {page < pageCount ? <Link to={`/eventos?pasados=${page + 1}`}>Siguiente</Link> : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
