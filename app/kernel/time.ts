// Dates and times of the site's one time zone (SITE_TIMEZONE), independent of the server's own.
//
// Written in Spanish by this module, not by Intl: a phone's first Intl.DateTimeFormat loads the
// browser's locale and time-zone data, 40–80 ms of one task on this machine and four times that on
// a slow phone, in the middle of hydration (decision 049). The words and patterns are those of
// Intl's es-BO ("viernes, 6 de diciembre de 2030, 7:00 p. m."), the same on the server and in
// the browser whatever ICU each carries. The zone's offsets come from Intl once, on the server,
// as a table of changes (`zoneRules`) that the root route hands to the browser; an instant
// outside the table is asked of Intl.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, found);
  }
  return found;
}

/** A zone's offsets over a span of years: each change as [instant ms, offset in minutes]. */
export interface ZoneRules {
  zone: string;
  from: number;
  until: number;
  changes: Array<[number, number]>;
}

const zones = new Map<string, ZoneRules>();

/** Offsets read from Intl: what the table is made of, and the answer outside it. */
function intlOffsetMs(instant: Date, timeZone: string): number {
  const parts = formatter("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
/** Zones change their offset at most twice a year: a week's step misses none. */
const STEP_MS = 7 * DAY_MS;

/**
 * The offsets of `timeZone` from 2000 until fifteen years from now (cached; made with Intl on the
 * server, about 1,400 look-ups once per zone). For a zone without changes, such as Bolivia's,
 * the table is one row.
 */
export function zoneRules(timeZone: string, now: number = Date.now()): ZoneRules {
  const found = zones.get(timeZone);
  if (found && found.until - now > 10 * YEAR_MS) return found;
  const from = Date.UTC(2000, 0, 1);
  const until = now + 15 * YEAR_MS;
  const offsetAt = (t: number) => intlOffsetMs(new Date(t), timeZone) / 60_000;
  const changes: Array<[number, number]> = [[from, offsetAt(from)]];
  for (let t = from; t < until; t += STEP_MS) {
    const next = Math.min(t + STEP_MS, until);
    const before = offsetAt(t);
    if (offsetAt(next) === before) continue;
    // The first second with the new offset.
    let low = t;
    let high = next;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (offsetAt(middle) === before) low = middle;
      else high = middle;
    }
    changes.push([high, offsetAt(high)]);
  }
  const rules = { zone: timeZone, from, until, changes };
  zones.set(timeZone, rules);
  return rules;
}

/** Makes a zone's table known to this module (the browser, from the root route's data). */
export function knowZoneRules(rules: ZoneRules | null | undefined): void {
  if (rules && !zones.has(rules.zone)) zones.set(rules.zone, rules);
}

function offsetMs(instant: Date, timeZone: string): number {
  const t = instant.getTime();
  const rules = zones.get(timeZone);
  if (!rules || t < rules.from || t >= rules.until || Number.isNaN(t))
    return intlOffsetMs(instant, timeZone);
  const { changes } = rules;
  let low = 0;
  let high = changes.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (changes[middle]![0] <= t) low = middle;
    else high = middle - 1;
  }
  return changes[low]![1] * 60_000;
}

/** The instant at which the wall-clock `fecha` (YYYY-MM-DD) `hora` (HH:MM[:SS]) happens in `timeZone`. */
export function zonedToInstant(fecha: string, hora: string, timeZone: string): Date {
  const [y, m, d] = fecha.split("-").map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = hora.split(":").map(Number) as [number, number, number?];
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  // Two passes settle the offset also next to a daylight-saving change.
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];
const SHORT_MONTHS = [
  "ene",
  "feb",
  "mar",
  "abr",
  "may",
  "jun",
  "jul",
  "ago",
  "sept",
  "oct",
  "nov",
  "dic",
];
const WEEKDAYS = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"];
const SHORT_WEEKDAYS = ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"];

/** An instant's wall clock in `timeZone`, read from a Date shifted by the zone's offset. */
function wallClock(instant: Date | string, timeZone: string) {
  const date = new Date(instant);
  const wall = new Date(date.getTime() + offsetMs(date, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth(),
    day: wall.getUTCDate(),
    weekday: wall.getUTCDay(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

const two = (n: number) => String(n).padStart(2, "0");

/** "16 de noviembre de 2026". */
function longDate(clock: { year: number; month: number; day: number }): string {
  return `${clock.day} de ${MONTHS[clock.month]} de ${clock.year}`;
}

/**
 * "7:00 p. m.", its spaces no-break, so that a line never ends inside a time: the hour as es-BO
 * writes it, 12 for midnight and noon.
 */
function shortTime(clock: { hour: number; minute: number }): string {
  const hour = clock.hour % 12 === 0 ? 12 : clock.hour % 12;
  return `${hour}:${two(clock.minute)}\u00a0${clock.hour < 12 ? "a" : "p"}.\u00a0m.`;
}

export function formatDate(instant: Date | string, timeZone: string): string {
  return longDate(wallClock(instant, timeZone));
}

/**
 * The days an event runs, standing alone on a certificate: "16 de noviembre de 2026" on one day,
 * "Del 16 al 19 de noviembre de 2026" within a month, "Del 30 de noviembre al 2 de diciembre de
 * 2026" within a year, and both dates whole across years.
 */
export function formatDateRange(
  start: Date | string,
  end: Date | string,
  timeZone: string,
): string {
  const a = wallClock(start, timeZone);
  const b = wallClock(end, timeZone);
  const until = longDate(b);
  if (a.year === b.year && a.month === b.month && a.day === b.day) return until;
  if (a.year === b.year && a.month === b.month) return `Del ${a.day} al ${until}`;
  if (a.year === b.year) return `Del ${a.day} de ${MONTHS[a.month]} al ${until}`;
  return `Del ${longDate(a)} al ${until}`;
}

/** "viernes, 6 de diciembre de 2030, 7:00 p. m." */
export function formatDateTime(instant: Date | string, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  return `${WEEKDAYS[clock.weekday]}, ${longDate(clock)}, ${shortTime(clock)}`;
}

/**
 * When an event runs: "sábado, 6 de diciembre de 2030, 7:00 p. m. a 9:00 p. m." on one day,
 * "martes, 4 de noviembre de 2025, 7:00 p. m. al viernes, 7 de noviembre de 2025, 9:00 p. m."
 * across days.
 */
export function formatDateTimeRange(
  start: Date | string,
  end: Date | string,
  timeZone: string,
): string {
  const from = formatDateTime(start, timeZone);
  const a = wallClock(start, timeZone);
  const b = wallClock(end, timeZone);
  if (a.year === b.year && a.month === b.month && a.day === b.day)
    return `${from} a ${shortTime(b)}`;
  return `${from} al ${formatDateTime(end, timeZone)}`;
}

/** An instant's time of day in Spanish ("7:15 p. m."), in `timeZone`. */
export function formatTime(instant: Date | string, timeZone: string): string {
  return shortTime(wallClock(instant, timeZone));
}

/** An instant's date ("2031-06-06") and time ("19:00") in `timeZone`. */
export function zonedDateTime(instant: Date | string, timeZone: string) {
  const clock = wallClock(instant, timeZone);
  return {
    date: `${String(clock.year).padStart(4, "0")}-${two(clock.month + 1)}-${two(clock.day)}`,
    time: `${two(clock.hour)}:${two(clock.minute)}`,
  };
}

/** "2031-06-06 19:00" in `timeZone`: a date and time that spreadsheet programs read as such. */
export function formatSortableDateTime(instant: Date | string, timeZone: string): string {
  const { date, time } = zonedDateTime(instant, timeZone);
  return `${date} ${time}`;
}

/** A person's name for a time zone ("hora de Bolivia"), or its offset ("GMT-4"), never its id. */
export function timeZoneLabel(timeZone: string, now: Date = new Date()): string {
  const name = (style: "long" | "shortOffset") =>
    formatter("es-BO", { timeZone, timeZoneName: style })
      .formatToParts(now)
      .find((part) => part.type === "timeZoneName")?.value;
  const long = name("long");
  if (long && long.startsWith("hora")) return long;
  return `hora ${name("shortOffset") ?? "UTC"}`;
}

/** A date-only value (YYYY-MM-DD, such as a birth date) in Spanish, without any time zone shift. */
export function formatCalendarDate(value: string): string {
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return longDate({ year: y, month: m - 1, day: d });
}

/** The current year in `timeZone` (the footer's copyright line). */
export function currentYear(timeZone: string, now: Date = new Date()): number {
  return wallClock(now, timeZone).year;
}

/** A short day and time for lists on a phone: "lun, 16 nov, 19:00", in `timeZone`. */
export function formatShortDateTime(instant: Date | string, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  return `${SHORT_WEEKDAYS[clock.weekday]}, ${clock.day} ${SHORT_MONTHS[clock.month]}, ${two(clock.hour)}:${two(clock.minute)}`;
}

/**
 * When something happens, as a clock reads it: "a las 09:00" on the day of `now` in `timeZone`,
 * "el lunes 16 de noviembre a las 09:00" on another day.
 */
export function formatClockFrom(instant: Date | string, now: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  const today = wallClock(now, timeZone);
  const at = `a las ${two(clock.hour)}:${two(clock.minute)}`;
  if (clock.year === today.year && clock.month === today.month && clock.day === today.day)
    return at;
  return `el ${WEEKDAYS[clock.weekday]} ${clock.day} de ${MONTHS[clock.month]} ${at}`;
}
