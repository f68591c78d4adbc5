import { ItemCard } from "~/ui/item-card";
import { formatDateTime } from "~/kernel/time";
import { tipoEventoLabel } from "~/kernel/limits";
import type { EventState } from "~/events/event-state";
import { stateBadge } from "./event-state-badge";

interface EventSummary {
  id: string;
  nombreEvento: string;
  ubicacionEvento: string;
  tipoEvento: string;
  imagenEnlace: string | null;
  startsAt: string;
}

/**
 * One event as a card, on the home page and on /eventos: picture, name, date, place, type, and
 * its state ('En curso', 'Finalizado') as the server decided it.
 */
export function EventCard({
  event,
  timeZone,
  state,
  heading = "h3",
}: {
  event: EventSummary;
  timeZone: string;
  state: EventState;
  heading?: "h2" | "h3" | "h4";
}) {
  const badge = stateBadge(state);
  return (
    <ItemCard
      to={`/detalles/${event.id}`}
      title={event.nombreEvento}
      heading={heading}
      image={event.imagenEnlace}
      imageLabel="Evento"
      meta={<time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>}
      badges={
        badge ? [tipoEventoLabel(event.tipoEvento), badge] : [tipoEventoLabel(event.tipoEvento)]
      }
      text={event.ubicacionEvento}
    />
  );
}
