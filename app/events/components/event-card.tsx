import { ItemCard } from "~/ui/item-card";
import { formatDateTime } from "~/kernel/time";

interface EventSummary {
  id: string;
  nombreEvento: string;
  ubicacionEvento: string;
  tipoEvento: string;
  imagenEnlace: string | null;
  startsAt: string;
}

/** One event as a card, on the home page and on /eventos: picture, name, date, place, type. */
export function EventCard({
  event,
  timeZone,
  ended,
  heading = "h3",
}: {
  event: EventSummary;
  timeZone: string;
  ended: boolean;
  heading?: "h2" | "h3" | "h4";
}) {
  return (
    <ItemCard
      to={`/detalles/${event.id}`}
      title={event.nombreEvento}
      heading={heading}
      image={event.imagenEnlace}
      imageLabel="Evento"
      meta={<time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>}
      badges={ended ? [event.tipoEvento, "Finalizado"] : [event.tipoEvento]}
      text={event.ubicacionEvento}
    />
  );
}
