// Dates and times of the site's one time zone (SITE_TIMEZONE), independent of the server's own.

// Making an Intl formatter costs about as much as formatting sixty dates: keep one per setting.
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

function offsetMs(instant: Date, timeZone: string): number {
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

const LOCALE = "es-BO";

export function formatDate(instant: Date | string, timeZone: string): string {
  return formatter(LOCALE, { timeZone, dateStyle: "long" }).format(new Date(instant));
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
  const from = formatDate(start, timeZone);
  const until = formatDate(end, timeZone);
  if (from === until) return from;
  const a = zonedDateTime(start, timeZone).date.split("-");
  const b = zonedDateTime(end, timeZone).date.split("-");
  const [day, month] = from.split(" de ") as [string, string, string];
  if (a[0] === b[0] && a[1] === b[1]) return `Del ${day} al ${until}`;
  if (a[0] === b[0]) return `Del ${day} de ${month} al ${until}`;
  return `Del ${from} al ${until}`;
}

/** Binds "6:00 p. m." together with no-break spaces, so a line never ends inside a time. */
function keepTimeTogether(text: string): string {
  return text.replace(/(\d) ([ap])\. m\./g, "$1\u00a0$2.\u00a0m.");
}

/** Pages show the same few events' times again and again: each is formatted once. */
const formattedDateTimes = new Map<string, string>();
const MAX_FORMATTED_DATE_TIMES = 2000;

export function formatDateTime(instant: Date | string, timeZone: string): string {
  const date = new Date(instant);
  const key = `${timeZone}|${date.getTime()}`;
  let text = formattedDateTimes.get(key);
  if (text === undefined) {
    text = keepTimeTogether(
      formatter(LOCALE, { timeZone, dateStyle: "full", timeStyle: "short" }).format(date),
    );
    if (formattedDateTimes.size >= MAX_FORMATTED_DATE_TIMES) formattedDateTimes.clear();
    formattedDateTimes.set(key, text);
  }
  return text;
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
  if (zonedDateTime(start, timeZone).date === zonedDateTime(end, timeZone).date) {
    const until = keepTimeTogether(
      formatter(LOCALE, { timeZone, timeStyle: "short" }).format(new Date(end)),
    );
    return `${from} a ${until}`;
  }
  return `${from} al ${formatDateTime(end, timeZone)}`;
}

/** An instant's time of day in Spanish ("7:15 p. m."), in `timeZone`. */
export function formatTime(instant: Date | string, timeZone: string): string {
  return keepTimeTogether(
    formatter(LOCALE, { timeZone, timeStyle: "short" }).format(new Date(instant)),
  );
}

/** An instant's date ("2031-06-06") and time ("19:00") in `timeZone`. */
export function zonedDateTime(instant: Date | string, timeZone: string) {
  const parts = formatter("en-CA", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    time: `${get("hour")}:${get("minute")}`,
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
    formatter(LOCALE, { timeZone, timeZoneName: style })
      .formatToParts(now)
      .find((part) => part.type === "timeZoneName")?.value;
  const long = name("long");
  if (long && long.startsWith("hora")) return long;
  return `hora ${name("shortOffset") ?? "UTC"}`;
}

/** A date-only value (YYYY-MM-DD, such as a birth date) in Spanish, without any time zone shift. */
export function formatCalendarDate(value: string): string {
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return formatter(LOCALE, { timeZone: "UTC", dateStyle: "long" }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** The current year in `timeZone` (the footer's copyright line). */
export function currentYear(timeZone: string, now: Date = new Date()): number {
  return Number(formatter("en-US", { timeZone, year: "numeric" }).format(now));
}

/** A short day and time for lists on a phone: "lun, 16 nov, 19:00", in `timeZone`. */
export function formatShortDateTime(instant: Date | string, timeZone: string): string {
  return keepTimeTogether(
    formatter(LOCALE, {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(instant)),
  );
}
