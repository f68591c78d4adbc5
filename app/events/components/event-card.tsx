import { ItemCard } from "~/ui/item-card";
import { formatDateTime } from "~/kernel/time";
import { tipoEventoLabel } from "~/kernel/limits";
import type { EventState } from "~/events/event-state";
import { plural } from "~/kernel/plural";
import { stateBadge } from "./event-state-badge";
import { seatsText } from "./participation-button";

interface EventSummary {
  id: string;
  nombreEvento: string;
  ubicacionEvento: string;
  tipoEvento: string;
  imagenEnlace: string | null;
  startsAt: string;
  /** How many take part, and the seats (null: no limit). */
  going: number;
  capacity: number | null;
  /** Its sessions that are not cancelled (decision 043); a card says "4 sesiones" when several. */
  sessions?: number;
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
  const seats =
    event.capacity !== null && state !== "ended"
      ? seatsText(Math.max(0, event.capacity - event.going))
      : null;
  const going =
    event.going === 0
      ? null
      : state === "ended"
        ? plural(event.going, "persona fue", "personas fueron")
        : plural(event.going, "persona va", "personas van");
  return (
    <ItemCard
      to={`/detalles/${event.id}`}
      title={event.nombreEvento}
      heading={heading}
      image={event.imagenEnlace}
      imageLabel="Evento"
      meta={
        <>
          <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
          {(event.sessions ?? 1) > 1 ? ` · ${event.sessions} sesiones` : null}
          {going ? ` · ${going}` : null}
        </>
      }
      badges={[tipoEventoLabel(event.tipoEvento), badge, seats].filter((b) => b !== null)}
      text={event.ubicacionEvento}
    />
  );
}
