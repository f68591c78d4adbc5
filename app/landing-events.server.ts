// What the landing pages (/events, /clase1 and the home's cards) say about the site's own events
// that an admin links at /admin/sitio (docs/decisions/076-landing-pages-read-the-sites-events.md):
// their name, dates in the site's time zone, place, categories, registration, sessions, price and
// seats, read when the page is made. An event that is over is said to have happened, never
// announced as coming; the section's own words only stand where no event is linked.
import type { Db } from "~/db/client.server";
import { listCategories } from "~/competitions/categories.server";
import { getEvent } from "~/events/event.server";
import { eventPlace } from "~/events/event-place";
import { isUuid } from "~/kernel/checks";
import { formatDate, formatDateRange, formatDateTime, zonedDateTime } from "~/kernel/time";
import { formatBs } from "~/payments/money";
import type { SiteSections } from "~/site/sections";

/** One of the site's events as a landing page speaks of it. */
export interface LandingEvent {
  id: string;
  name: string;
  place: string;
  /** "Del 12 al 15 de enero de 2027"; "Se realizó el …" once it is over. */
  dateLabel: string;
  /** Its first day (YYYY-MM-DD, in the site's time zone), for `<time>`. */
  dateIso: string;
  /** "12 ene." or "12 - 15 ene.": short, for a list row; "Realizado" once over. */
  when: string;
  over: boolean;
  /** Its price ("30 Bs" or "Gratis"). */
  price: string;
  /** Its sessions to come, not cancelled: "martes, 12 de enero de 2027, 7:00 p. m.". */
  sessions: string[];
  /** "Quedan 12 cupos", "Sin cupos: lista de espera", or "" without a capacity or once over. */
  seats: string;
}

/** A linked competition: the event, its categories and whether each still takes teams. */
export interface LandingCompetition extends LandingEvent {
  categories: { id: string; name: string; registration: string }[];
}

const SHORT_MONTHS = [
  "ene.",
  "feb.",
  "mar.",
  "abr.",
  "may.",
  "jun.",
  "jul.",
  "ago.",
  "sep.",
  "oct.",
  "nov.",
  "dic.",
];

function shortDay(iso: string): { day: number; month: string; year: string } {
  const [year, month, day] = iso.split("-");
  return { day: Number(day), month: SHORT_MONTHS[Number(month) - 1] ?? "", year: year ?? "" };
}

/** "12 ene. 2027" on one day, "12 - 15 ene. 2027", "30 nov. - 2 dic. 2027". */
export function shortDateRange(startIso: string, endIso: string): string {
  const a = shortDay(startIso);
  const b = shortDay(endIso);
  if (startIso === endIso) return `${a.day} ${a.month} ${a.year}`;
  if (a.year === b.year && a.month === b.month) return `${a.day} - ${b.day} ${b.month} ${b.year}`;
  if (a.year === b.year) return `${a.day} ${a.month} - ${b.day} ${b.month} ${b.year}`;
  return `${a.day} ${a.month} ${a.year} - ${b.day} ${b.month} ${b.year}`;
}

type FullEvent = NonNullable<Awaited<ReturnType<typeof getEvent>>>;

function describe(event: FullEvent, now: Date, timeZone: string): LandingEvent {
  const over = event.endsAt.getTime() <= now.getTime();
  const sessions = event.sessions
    .filter((s) => s.cancelledAt === null)
    .map((s) => ({ startsAt: s.startsAt, endsAt: s.endsAt }));
  // Under way: from the session in progress or next on, so that no day gone is announced.
  const from =
    !over && event.startsAt.getTime() <= now.getTime()
      ? (sessions.find((s) => s.endsAt.getTime() > now.getTime())?.startsAt ?? now)
      : event.startsAt;
  const startIso = zonedDateTime(from, timeZone).date;
  const endIso = zonedDateTime(event.endsAt, timeZone).date;
  const range = formatDateRange(from, event.endsAt, timeZone);
  return {
    id: event.id,
    name: event.nombreEvento,
    place: eventPlace(event),
    dateLabel: over
      ? startIso === endIso
        ? `Se realizó el ${range}`
        : `Se realizó ${range.replace(/^Del /, "del ")}`
      : range,
    dateIso: startIso,
    when: over ? "Realizado" : shortDateRange(startIso, endIso),
    over,
    price: event.priceCents > 0 ? formatBs(event.priceCents) : "Gratis",
    // The sessions still to come (all of them before it starts), when there are several.
    sessions:
      sessions.length > 1
        ? sessions
            .filter((s) => !over && s.endsAt.getTime() > now.getTime())
            .map((s) => formatDateTime(s.startsAt, timeZone))
        : [],
    seats:
      over || event.seatsLeft === null
        ? ""
        : event.seatsLeft === 0
          ? "Sin cupos: lista de espera"
          : event.seatsLeft === 1
            ? "Queda 1 cupo"
            : `Quedan ${event.seatsLeft} cupos`,
  };
}

/** One of the site's events, as a landing page speaks of it; null when the id names none. */
export async function landingEvent(
  db: Db,
  id: string | undefined,
  now: Date,
  timeZone: string,
): Promise<LandingEvent | null> {
  if (!id || !isUuid(id)) return null;
  const event = await getEvent(db, id);
  return event ? describe(event, now, timeZone) : null;
}

async function landingCompetition(
  db: Db,
  id: string,
  now: Date,
  timeZone: string,
): Promise<LandingCompetition | null> {
  const event = isUuid(id) ? await getEvent(db, id) : null;
  if (!event) return null;
  const categories = await listCategories(db, event.id);
  const base = describe(event, now, timeZone);
  return {
    ...base,
    categories: categories.map((c) => ({
      id: c.id,
      name: c.name,
      registration: base.over
        ? ""
        : now.getTime() < c.registrationClosesAt.getTime()
          ? `Inscripciones abiertas hasta el ${formatDate(c.registrationClosesAt, timeZone)}`
          : "Inscripciones cerradas",
    })),
  };
}

/** The competition section's headline: its edition and date, as the page and the home say them. */
export interface CompetitionHeadline {
  title: string;
  dateLabel: string;
  /** For `<time>`; "" when the date is not one (or not said). */
  dateIso: string;
  place: string;
  over: boolean;
  /** The headline competition's page, when it is one of the site's events. */
  eventId: string | null;
}

/**
 * The competition section with the site's own events: each row that links one shows that event's
 * name and dates, and the headline is the linked competition that comes next (or, when all are
 * over, the last one, said to have happened). With none linked, the section's own words — without
 * a date that has passed.
 */
export async function competitionOnLanding(
  db: Db,
  content: SiteSections["competition"],
  course: SiteSections["course"],
  now: Date,
  timeZone: string,
) {
  const linked = new Map<string, LandingCompetition>();
  for (const id of new Set(content.events.map((row) => row.eventId ?? "").filter(Boolean))) {
    const found = await landingCompetition(db, id, now, timeZone);
    if (found) linked.set(id, found);
  }
  const courseEvent = await landingEvent(db, course.eventId, now, timeZone);
  const events = content.events.map(({ eventId, ...row }) => {
    const event = eventId ? linked.get(eventId) : undefined;
    if (event)
      return {
        ...row,
        name: event.name,
        when: event.when,
        competition: {
          eventId: event.id,
          categories: event.categories.map(({ id, name }) => ({ id, name })),
        },
      };
    // A row leading to the course page takes the course's event dates when it has one.
    if (row.href === "/clase1" && courseEvent)
      return { ...row, when: courseEvent.when, competition: null };
    return { ...row, competition: null };
  });
  const all = [...linked.values()];
  const next = all.filter((e) => !e.over).sort((a, b) => a.dateIso.localeCompare(b.dateIso))[0];
  const last = all.filter((e) => e.over).sort((a, b) => b.dateIso.localeCompare(a.dateIso))[0];
  const lead = next ?? last ?? null;
  const today = zonedDateTime(now, timeZone).date;
  const headline: CompetitionHeadline = lead
    ? {
        title: lead.name,
        dateLabel: lead.dateLabel,
        dateIso: lead.dateIso,
        place: lead.place,
        over: lead.over,
        eventId: lead.id,
      }
    : content.dateIso && content.dateIso < today
      ? // A date typed by hand that has passed is not announced.
        { title: content.edition, dateLabel: "", dateIso: "", place: "", over: true, eventId: null }
      : {
          title: content.edition,
          dateLabel: content.dateLabel,
          dateIso: content.dateIso,
          place: "",
          over: false,
          eventId: null,
        };
  return { headline, events, categories: lead?.categories ?? [] };
}

/** The home's competition card: the headline in one line, and the section's tagline. */
export function competitionCardText(headline: CompetitionHeadline, tagline: string): string {
  return [[headline.title, headline.dateLabel].filter(Boolean).join(", "), tagline]
    .filter(Boolean)
    .join(": ");
}
