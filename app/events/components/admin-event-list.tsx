import { Link } from "react-router";
import { formatDateTime } from "~/kernel/time";
import { panelHref } from "~/kernel/panel-href";
import type { EventState } from "~/events/event-state";
import { plural } from "~/kernel/plural";
import { EventStateBadge } from "./event-state-badge";
import { seatsText } from "./participation-button";

/** The panel's 'Eventos Publicados', each with its gallery, edit and delete links. */
export function AdminEventList({
  events,
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
  params: URLSearchParams;
  timeZone: string;
}) {
  return (
    <section className="card" aria-labelledby="events-title">
      <h2 id="events-title">Eventos Publicados</h2>
      {events.length === 0 ? (
        <p>No hay eventos publicados.</p>
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
                <Link
                  to={`/admin/eventos/${event.id}/participantes`}
                  className="button button-secondary button-small"
                  aria-label={`Participantes de ${event.nombreEvento}`}
                >
                  Participantes
                </Link>
                <Link
                  reloadDocument
                  to={`/admin/eventos/${event.id}/registro`}
                  className="button button-secondary button-small"
                  aria-label={`Registro en la puerta de ${event.nombreEvento}`}
                >
                  Registro
                </Link>
                <Link
                  to={panelHref(params, { galeria: event.id })}
                  preventScrollReset
                  className="button button-secondary button-small"
                  aria-label={`Galería de ${event.nombreEvento}`}
                >
                  Galería
                </Link>
                <Link
                  to={`${panelHref(params, { editar: event.id })}#evento-form`}
                  className="button button-secondary button-small"
                  aria-label={`Editar ${event.nombreEvento}`}
                >
                  Editar
                </Link>
                <Link
                  to={panelHref(params, { eliminar: event.id })}
                  preventScrollReset
                  className="button button-small button-danger"
                  aria-label={`Eliminar ${event.nombreEvento}`}
                >
                  Eliminar
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
