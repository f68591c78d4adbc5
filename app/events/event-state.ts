// An event's state at an instant — the one rule of when an event is upcoming, in progress or over
// (decision 030). Pure, so that the mail worker and the tests use it as the pages do; the SQL of
// the lists says the same with `ends_at > now` (app/events/event.server.ts).

export type EventState = "upcoming" | "ongoing" | "ended";

/**
 * Where an event stands at `now`: 'upcoming' before its start, 'ongoing' from its start until its
 * end, 'ended' from its end on. The one rule of the site (pages, joins, certificates, reminders,
 * lists); the SQL of the lists says the same with `ends_at > now` (decision 030).
 */
export function eventState(
  event: { startsAt: Date; endsAt: Date },
  now: Date = new Date(),
): EventState {
  const at = now.getTime();
  if (at >= event.endsAt.getTime()) return "ended";
  return at >= event.startsAt.getTime() ? "ongoing" : "upcoming";
}

/** An event has ended when its end has come (§4, §9; PRODUCT.md, decision 030). */
export function hasEnded(event: { startsAt: Date; endsAt: Date }, now: Date = new Date()): boolean {
  return eventState(event, now) === "ended";
}
