import { Link } from "react-router";
import { EventCard } from "~/events/components/event-card";
import { EmptyState } from "~/ui/item-card";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { eventState, listEventsPage } from "~/events/event.server";
import type { Route } from "./+types/list";
import { worksWithoutScripts } from "~/site/light-mode";

const PAGE_SIZE = 24;

function pageOf(params: URLSearchParams, name: string): number {
  const requested = Number(params.get(name) ?? "1");
  return Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1;
}

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = context.now();
  const params = new URL(request.url).searchParams;
  const upcomingPage = pageOf(params, "proximos");
  const page = pageOf(params, "pasados");
  const { upcoming, upcomingTotal, past, pastTotal } = await listEventsPage(
    context.db,
    {
      pageSize: PAGE_SIZE,
      upcomingOffset: (upcomingPage - 1) * PAGE_SIZE,
      pastOffset: (page - 1) * PAGE_SIZE,
    },
    now,
  );
  // The state of each card is decided here, on the server, at the request's instant.
  const toJson = (e: (typeof upcoming)[number]) => ({
    ...e,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    state: eventState(e, now),
  });
  return {
    upcoming: upcoming.map(toJson),
    upcomingPage,
    upcomingPageCount: Math.max(1, Math.ceil(upcomingTotal / PAGE_SIZE)),
    past: past.map(toJson),
    page,
    pageCount: Math.max(1, Math.ceil(pastTotal / PAGE_SIZE)),
    timeZone: context.config.siteTimezone,
    // webcal: opens the calendar app, which subscribes to the feed instead of importing it once.
    calendarFeed: `webcal://${context.config.publicUrl.host}/eventos.ics`,
  };
}

function Pagination({
  label,
  name,
  page,
  pageCount,
  other,
}: {
  label: string;
  name: string;
  page: number;
  pageCount: number;
  other: string;
}) {
  if (pageCount <= 1) return null;
  const href = (n: number) =>
    `/eventos?${new URLSearchParams({ ...(other ? Object.fromEntries(new URLSearchParams(other)) : {}), [name]: String(n) })}`;
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? <Link to={href(page - 1)}>Anterior</Link> : null}
      <span>{`Página ${page} de ${pageCount}`}</span>
      {page < pageCount ? <Link to={href(page + 1)}>Siguiente</Link> : null}
    </nav>
  );
}

export function meta() {
  return [
    { title: "Eventos — Ayllu" },
    {
      name: "description",
      content:
        "Talleres, charlas y competencias de robótica y tecnología libre de la comunidad Ayllu en Bolivia.",
    },
  ];
}

export default function EventsList({ loaderData }: Route.ComponentProps) {
  const { upcoming, upcomingPage, upcomingPageCount, past, page, pageCount, timeZone } = loaderData;
  const { calendarFeed } = loaderData;
  const mayPublish = may(useRootData()?.user, "event.create");
  return (
    <div className="page">
      <h1>Eventos</h1>
      <p className="button-row">
        <a className="button button-secondary" href={calendarFeed}>
          Suscribirse al calendario
        </a>
      </p>
      <section aria-labelledby="upcoming-title" className="events-section">
        <h2 id="upcoming-title">Próximos eventos</h2>
        {upcoming.length === 0 ? (
          <EmptyState title="No hay eventos próximos por ahora.">
            {past.length > 0 || mayPublish ? (
              <p className="button-row">
                {past.length > 0 ? (
                  <a className="button button-secondary" href="#past-title">
                    Ver eventos pasados
                  </a>
                ) : null}
                {mayPublish ? (
                  <Link className="button" to="/admin">
                    Publicar un evento
                  </Link>
                ) : null}
              </p>
            ) : null}
          </EmptyState>
        ) : (
          <ul className="item-grid">
            {upcoming.map((event) => (
              <EventCard key={event.id} event={event} timeZone={timeZone} state={event.state} />
            ))}
          </ul>
        )}
        <Pagination
          label="Páginas de próximos eventos"
          name="proximos"
          page={upcomingPage}
          pageCount={upcomingPageCount}
          other={page > 1 ? `pasados=${page}` : ""}
        />
      </section>
      <section aria-labelledby="past-title" className="events-section">
        <h2 id="past-title">Eventos pasados</h2>
        {past.length === 0 ? (
          <EmptyState title="No hay eventos pasados." />
        ) : (
          <ul className="item-grid">
            {past.map((event) => (
              <EventCard key={event.id} event={event} timeZone={timeZone} state={event.state} />
            ))}
          </ul>
        )}
        <Pagination
          label="Páginas de eventos pasados"
          name="pasados"
          page={page}
          pageCount={pageCount}
          other={upcomingPage > 1 ? `proximos=${upcomingPage}` : ""}
        />
      </section>
    </div>
  );
}
