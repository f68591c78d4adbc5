import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, notes } from "~/db/schema.server";
import { seedDemoSite } from "~/site/demo.server";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

// The demo content of a new install (`npm start`): dated from the day it is made, so an upcoming
// demo event is upcoming, a past one is past, and a year in a name is the year of its date.
let database: TestDatabase;
const seededAt = new Date();

beforeAll(async () => {
  database = await createTestDatabase();
  expect(await seedDemoSite(database.db)).toBe(true);
});
afterAll(() => database.close());

describe("demo content", () => {
  it("is seeded once", async () => {
    expect(await seedDemoSite(database.db)).toBe(false);
  });

  it("has upcoming and past events, each named with the year of its own date", async () => {
    const rows = await database.db.select().from(events);
    const upcoming = rows.filter((e) => e.startsAt > seededAt);
    const past = rows.filter((e) => e.startsAt < seededAt);
    expect(upcoming.length).toBeGreaterThanOrEqual(2);
    expect(past.length).toBeGreaterThanOrEqual(1);
    for (const event of rows) {
      for (const year of event.nombreEvento.match(/\b20\d\d\b/g) ?? []) {
        expect(year, event.nombreEvento).toBe(event.fechaEvento.slice(0, 4));
      }
    }
  });

  it("never announces as coming a date that has passed", async () => {
    const rows = await database.db.select().from(notes);
    for (const note of rows) {
      const text = `${note.titulo} ${note.texto}`;
      if (!/\bse viene\b|\bpróxim/i.test(text)) continue;
      for (const year of text.match(/\b20\d\d\b/g) ?? []) {
        expect(Number(year), text).toBeGreaterThanOrEqual(seededAt.getUTCFullYear());
      }
    }
  });
});
