// Events (eventos): publishing, editing, galleries, participation — and the rule of when an
// event has ended, decided on the server in SITE_TIMEZONE.
import { asc, gt } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { events } from "../db/schema.server";

/** An event has ended when now is after its date and time in the site's time zone (§4, §9). */
export function hasEnded(event: { startsAt: Date }, now: Date = new Date()): boolean {
  return now.getTime() > event.startsAt.getTime();
}

/** The next events that have not started yet, soonest first (home page, /eventos). */
export async function listUpcomingEvents(db: Db, limit: number, now: Date = new Date()) {
  return db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      ubicacionEvento: events.ubicacionEvento,
      tipoEvento: events.tipoEvento,
      imagenEnlace: events.imagenEnlace,
      startsAt: events.startsAt,
    })
    .from(events)
    .where(gt(events.startsAt, now))
    .orderBy(asc(events.startsAt))
    .limit(limit);
}
