import { Form, Link, useLocation } from "react-router";
import { formatDateTime } from "~/kernel/time";
import { EVENT_PAGE, EVENT_SEARCH, panelHref } from "~/kernel/panel-href";
import { SEARCH_MAX } from "~/kernel/search";
import { RowMenu } from "~/ui/row-menu";
import type { EventState } from "~/events/event-state";
import { plural } from "~/kernel/plural";
import { EventStateBadge } from "./event-state-badge";
import { seatsText } from "./participation-button";

/**
 * The panel's 'Eventos Publicados', a page at a time and searchable by title: each row with
 * 'Gestionar', and its participants, door, gallery, edit and delete links in its menu.
 */
export function AdminEventList({
  events,
  eventsPage,
  params,
  timeZone,
}: {
  events: ReadonlyArray<{
    id: string;
    nombreEvento: string;
    ubicacionEvento: string;
    startsAt: string;
    state: EventState;
    going: number;
    capacity: number | null;
  }>;
  eventsPage: { total: number; page: number; pageCount: number; pageSize: number; q: string };
  params: URLSearchParams;
  timeZone: string;
}) {
  const { key: arrival } = useLocation();
  const first = (eventsPage.page - 1) * eventsPage.pageSize + 1;
  return (
    <section className="card" aria-labelledby="events-title">
      <h2 id="events-title">Eventos Publicados</h2>
      <Form method="get" className="search-form" role="search" aria-label="Buscar eventos">
        <label htmlFor="event-search">Buscar por título</label>
        {/* The users' list keeps its search and page. */}
        {["q", "pagina"].map((key) =>
          params.get(key) ? (
            <input key={key} type="hidden" name={key} value={params.get(key) ?? ""} />
          ) : null,
        )}
        <div className="search-row">
          <input
            // What the list shows is what the box says, after every arrival.
            key={arrival}
            id="event-search"
            type="search"
            name={EVENT_SEARCH}
            defaultValue={eventsPage.q}
            maxLength={SEARCH_MAX}
          />
          <button type="submit" className="button button-secondary button-small">
            Buscar
          </button>
        </div>
      </Form>
      {events.length === 0 ? (
        <p>
          {eventsPage.q ? "Ningún evento coincide con la búsqueda." : "No hay eventos publicados."}
        </p>
      ) : (
        <ul className="admin-event-list">
          {events.map((event) => (
            <li key={event.id}>
              <div>
                <strong>
                  <Link className="inline-action" to={`/detalles/${event.id}`}>
                    {event.nombreEvento}
                  </Link>
                </strong>
                <span className="muted">{event.ubicacionEvento}</span>
                <span>
                  <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>{" "}
                  <EventStateBadge state={event.state} />
                </span>
                <span className="muted">
                  {plural(event.going, "inscrito", "inscritos") +
                    (event.capacity !== null
                      ? ` · ${seatsText(Math.max(0, event.capacity - event.going))}`
                      : "")}
                </span>
              </div>
              <div className="row-actions">
                <Link
                  to={`/admin/eventos/${event.id}`}
                  className="button button-secondary button-small"
                  aria-label={`Gestionar ${event.nombreEvento}: equipo y horario de puerta`}
                >
                  Gestionar
                </Link>
                <RowMenu label={event.nombreEvento}>
                  <li>
                    <Link
                      className="row-menu-item"
                      to={`/admin/eventos/${event.id}/participantes`}
                      aria-label={`Participantes de ${event.nombreEvento}`}
                    >
                      Participantes
                    </Link>
                  </li>
                  <li>
                    <Link
                      reloadDocument
                      className="row-menu-item"
                      to={`/admin/eventos/${event.id}/registro`}
                      aria-label={`Registro en la puerta de ${event.nombreEvento}`}
                    >
                      Registro
                    </Link>
                  </li>
                  <li>
                    <Link
                      className="row-menu-item"
                      to={panelHref(params, { galeria: event.id })}
                      preventScrollReset
                      aria-label={`Galería de ${event.nombreEvento}`}
                    >
                      Galería
                    </Link>
                  </li>
                  <li>
                    <Link
                      className="row-menu-item"
                      to={`${panelHref(params, { editar: event.id })}#evento-form`}
                      aria-label={`Editar ${event.nombreEvento}`}
                    >
                      Editar
                    </Link>
                  </li>
                  <li>
                    <Link
                      className="row-menu-item row-menu-danger"
                      to={panelHref(params, { eliminar: event.id })}
                      preventScrollReset
                      aria-label={`Eliminar ${event.nombreEvento}`}
                    >
                      Eliminar
                    </Link>
                  </li>
                </RowMenu>
              </div>
            </li>
          ))}
        </ul>
      )}
      {events.length > 0 ? (
        <p className="muted">
          {eventsPage.pageCount > 1
            ? `${first}–${first + events.length - 1} de ${plural(eventsPage.total, "evento", "eventos")}`
            : plural(eventsPage.total, "evento", "eventos")}
        </p>
      ) : null}
      {eventsPage.pageCount > 1 ? (
        <nav className="pagination" aria-label="Páginas de eventos">
          {eventsPage.page > 1 ? (
            <Link to={panelHref(params, { [EVENT_PAGE]: String(eventsPage.page - 1) })}>
              Anterior
            </Link>
          ) : null}
          <span>{`Página ${eventsPage.page} de ${eventsPage.pageCount}`}</span>
          {eventsPage.page < eventsPage.pageCount ? (
            <Link to={panelHref(params, { [EVENT_PAGE]: String(eventsPage.page + 1) })}>
              Siguiente
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
