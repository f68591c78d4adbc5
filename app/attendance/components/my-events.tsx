// A member's events on their profile (/profile): those they take part in, with the door pass of
// each one ahead and, after it, 'Asistió' or 'Inscrito' and the certificate; then the waiting lists.
import { WhatsAppLink } from "~/ui/whatsapp";
import { Link } from "react-router";
import { CheckInPass } from "~/attendance/components/check-in-pass";
import type { PassView } from "~/attendance/check-in";
import { formatDateTime } from "~/kernel/time";
import { EmptyState } from "~/ui/item-card";

export interface MyEvent {
  id: string;
  nombreEvento: string;
  startsAt: string;
  ended: boolean;
  attended: boolean;
  /** Sessions not cancelled they attended, of how many (decision 044). */
  sessions: { attended: number; total: number };
  /** Whether their certificate is there to download. */
  certificate: boolean;
  checkIn: PassView | null;
  /** The reminder's text to send by WhatsApp, until the event ends (decision 047). */
  reminder: string | null;
}

export interface MyWaitingEvent {
  id: string;
  nombreEvento: string;
  startsAt: string;
  position: number;
}

export function MyEvents({
  events,
  waiting,
  timeZone,
}: {
  events: MyEvent[];
  waiting: MyWaitingEvent[];
  timeZone: string;
}) {
  return (
    <>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Eventos Participando</h2>
        {events.length === 0 ? (
          <EmptyState title="No estás participando en ningún evento aún.">
            <Link className="button button-secondary" to="/eventos">
              Ver los próximos eventos
            </Link>
          </EmptyState>
        ) : (
          <ul className="event-list">
            {events.map((event) => (
              <li key={event.id}>
                <span>
                  <strong>{event.nombreEvento}</strong>
                  <br />
                  <span className="muted">{formatDateTime(event.startsAt, timeZone)}</span>
                  {event.sessions.total > 1 && (event.ended || event.sessions.attended > 0) ? (
                    <>
                      <br />
                      <span>{`Asististe a ${event.sessions.attended} de ${event.sessions.total} sesiones`}</span>
                    </>
                  ) : null}
                </span>
                <span className="profile-event-actions">
                  {event.ended ? (
                    <span className={event.attended ? "badge profile-attended" : "badge"}>
                      {event.attended ? "Asistió" : "Inscrito"}
                    </span>
                  ) : null}
                  {event.certificate ? (
                    <a
                      href={`/detalles/${event.id}/certificado.pdf`}
                      download
                      className="button button-small"
                      aria-label={`Descargar certificado de ${event.nombreEvento}`}
                    >
                      Descargar certificado
                    </a>
                  ) : null}
                  <Link
                    to={`/detalles/${event.id}`}
                    className="button button-secondary button-small"
                    aria-label={`Ver Detalles de ${event.nombreEvento}`}
                  >
                    Ver Detalles
                  </Link>
                </span>
                {event.checkIn ? (
                  <details className="profile-checkin">
                    <summary>Mi código de registro</summary>
                    <CheckInPass pass={event.checkIn} />
                  </details>
                ) : null}
                {event.reminder ? (
                  <span className="profile-reminder">
                    <WhatsAppLink
                      text={event.reminder}
                      label="Recordatorio por WhatsApp"
                      context={`de ${event.nombreEvento}, para enviártelo a ti o a un grupo`}
                      secondary
                    />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {waiting.length > 0 ? (
        <section className="card" aria-labelledby="waiting-title">
          <h2 id="waiting-title">En lista de espera</h2>
          <ul className="event-list">
            {waiting.map((event) => (
              <li key={event.id}>
                <span>
                  <strong>{event.nombreEvento}</strong>
                  <br />
                  <span className="muted">
                    {formatDateTime(event.startsAt, timeZone)} · posición {event.position}
                  </span>
                </span>
                <Link
                  to={`/detalles/${event.id}`}
                  className="button button-secondary button-small"
                  aria-label={`Ver Detalles de ${event.nombreEvento}`}
                >
                  Ver Detalles
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
