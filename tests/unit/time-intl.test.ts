// The site writes dates itself, not with Intl (app/kernel/time.ts): what it writes must be what
// Intl's es-BO writes, in zones with and without daylight saving, odd offsets, and across changes.
import { expect, test } from "vitest";
import {
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatShortDateTime,
  formatTime,
  zonedDateTime,
  zonedToInstant,
  zoneRules,
} from "~/kernel/time";

const ZONES = [
  "America/La_Paz",
  "America/New_York",
  "America/Santiago",
  "Europe/Madrid",
  "Asia/Kolkata",
  "Pacific/Chatham",
  "UTC",
];

const intl = (timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("es-BO", { timeZone, ...options });
const noBreak = (text: string) => text.replace(/(\d) ([ap])\. m\./g, "$1\u00a0$2.\u00a0m.");

/** Instants every 61 hours and 7 minutes from 2000 to 2040, and a minute around each change. */
function instants(zone: string): Date[] {
  const out: Date[] = [];
  for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2040, 0, 1); t += (61 * 60 + 7) * 60_000)
    out.push(new Date(t));
  for (const [at] of zoneRules(zone).changes.slice(1))
    for (const delta of [-60_000, -1000, 0, 1000, 60_000]) out.push(new Date(at + delta));
  return out;
}

for (const zone of ZONES) {
  test(`dates and times in ${zone} read as Intl's es-BO writes them`, () => {
    const full = intl(zone, { dateStyle: "full", timeStyle: "short" });
    const long = intl(zone, { dateStyle: "long" });
    const time = intl(zone, { timeStyle: "short" });
    const short = intl(zone, {
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    const parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    for (const instant of instants(zone)) {
      expect(formatDateTime(instant, zone)).toBe(noBreak(full.format(instant)));
      expect(formatDate(instant, zone)).toBe(long.format(instant));
      expect(formatTime(instant, zone)).toBe(noBreak(time.format(instant)));
      expect(formatShortDateTime(instant, zone)).toBe(short.format(instant));
      const p = Object.fromEntries(parts.formatToParts(instant).map((x) => [x.type, x.value]));
      expect(zonedDateTime(instant, zone)).toEqual({
        date: `${p.year}-${p.month}-${p.day}`,
        time: `${p.hour}:${p.minute}`,
      });
    }
  });
}

test("a zone's table has one row where the offset never changes, and the changes where it does", () => {
  const laPaz = zoneRules("America/La_Paz");
  expect(laPaz.changes).toEqual([[Date.UTC(2000, 0, 1), -240]]);
  // New York changes twice a year: 2 × 40 years or so, each on the second Intl says.
  const newYork = zoneRules("America/New_York");
  expect(newYork.changes.length).toBeGreaterThan(50);
  const spring2026 = newYork.changes.find(([at]) => at === Date.UTC(2026, 2, 8, 7));
  expect(spring2026).toEqual([Date.UTC(2026, 2, 8, 7), -240]);
});

test("a wall-clock time becomes its instant in the zone, also next to a change", () => {
  expect(zonedToInstant("2026-11-16", "19:00", "America/La_Paz").toISOString()).toBe(
    "2026-11-16T23:00:00.000Z",
  );
  expect(zonedToInstant("2026-03-08", "12:00", "America/New_York").toISOString()).toBe(
    "2026-03-08T16:00:00.000Z",
  );
  // Before the table begins, Intl is asked.
  expect(zonedToInstant("1995-06-01", "12:00", "America/New_York").toISOString()).toBe(
    "1995-06-01T16:00:00.000Z",
  );
  expect(formatDateTime("1995-06-01T16:00:00Z", "America/New_York")).toBe(
    "jueves, 1 de junio de 1995, 12:00\u00a0p.\u00a0m.",
  );
});

test("a birth date reads the same in every zone", () => {
  expect(formatCalendarDate("2008-02-29")).toBe("29 de febrero de 2008");
  expect(formatCalendarDate("1999-12-01")).toBe("1 de diciembre de 1999");
});
