import { Link } from "react-router";
import { formatDateTime } from "~/lib/time";
import { EventImage } from "./event-image";

export interface EventSummary {
  id: string;
  nombreEvento: string;
  ubicacionEvento: string;
  tipoEvento: string;
  imagenEnlace: string;
  startsAt: string;
}

/** One event in a list (/eventos): image, name, place, date, type, and a link to its page. */
export function EventCard({
  event,
  timeZone,
  ended,
}: {
  event: EventSummary;
  timeZone: string;
  ended: boolean;
}) {
  return (
    <li className="event-card">
      <EventImage src={event.imagenEnlace} className="event-card-image" />
      <div className="event-card-body">
        <h3>
          <Link to={`/detalles/${event.id}`}>{event.nombreEvento}</Link>
        </h3>
        <p className="muted">{event.ubicacionEvento}</p>
        <p>
          <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
        </p>
        <p className="event-card-tags">
          <span className="tag">{event.tipoEvento}</span>
          {ended ? <span className="tag tag-muted">Finalizado</span> : null}
        </p>
      </div>
    </li>
  );
}
