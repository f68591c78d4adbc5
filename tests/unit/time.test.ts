import { expect, test } from "vitest";
import { formatDateRange } from "~/kernel/time";

const ZONE = "America/La_Paz";

test("a course's days read as one range, in the site's zone", () => {
  // 19:00 in La Paz is 23:00 UTC: the day is La Paz's, not UTC's.
  expect(formatDateRange("2026-11-16T23:00:00Z", "2026-11-17T01:00:00Z", ZONE)).toBe(
    "16 de noviembre de 2026",
  );
  expect(formatDateRange("2026-11-16T23:00:00Z", "2026-11-20T01:00:00Z", ZONE)).toBe(
    "Del 16 al 19 de noviembre de 2026",
  );
  expect(formatDateRange("2026-11-30T23:00:00Z", "2026-12-03T01:00:00Z", ZONE)).toBe(
    "Del 30 de noviembre al 2 de diciembre de 2026",
  );
  expect(formatDateRange("2026-12-30T14:00:00Z", "2027-01-02T20:00:00Z", ZONE)).toBe(
    "Del 30 de diciembre de 2026 al 2 de enero de 2027",
  );
});
