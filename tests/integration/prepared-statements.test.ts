// The queries every page asks (app/db/prepared.server.ts) are built once and, on PostgreSQL,
// prepared once per connection under a name: they answer each viewer and each page for itself,
// however often the same statement runs, and PostgreSQL holds them as named statements.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EventSchema } from "~/events/schemas";
import type { Db } from "~/db/client.server";
import { users, type User } from "~/db/schema.server";
import { createEvent } from "~/events/event-commands.server";
import { getEventForViewer, listEventsPage, listUpcomingEvents } from "~/events/event.server";
import { createNote, listLatestNotes } from "~/publications/note.server";
import { joinEvent } from "~/events/participation.server";
import { getSessionUser } from "~/members/session.server";
import { createTestDatabase, type TestDatabase, testOnlyOn } from "../helpers/database";
import { VALID_EVENT } from "../helpers/events";

let database: TestDatabase;
let admin: User;
let member: User;
let other: User;
const eventIds: string[] = [];

async function addUser(name: string, isAdmin = false): Promise<User> {
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://pruebas.invalid",
      subject: name,
      email: `${name}@example.com`,
      emailVerified: true,
      displayName: name,
      nombreCompleto: name,
      fechaNacimiento: "1990-01-01",
      pais: "Bolivia",
      ciudad: "La Paz",
      genero: "Otro",
      isAdmin,
    })
    .returning();
  return user!;
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = await addUser("jefa", true);
  member = await addUser("ana");
  other = await addUser("beto");
  // Five events a day apart, 2030-12-01 to 2030-12-05 at 19:00 in La Paz (23:00 UTC), three seats each.
  for (let day = 1; day <= 5; day++) {
    const input = EventSchema.parse({
      ...VALID_EVENT,
      nombreEvento: `Evento ${day}`,
      fechaEvento: `2030-12-0${day}`,
      capacity: "3",
      enlacesVirtuales: [],
    });
    eventIds.push((await createEvent(database.db, admin, input, "America/La_Paz")).id);
  }
  await joinEvent(database.db, member, eventIds[0]);
  for (let n = 1; n <= 3; n++)
    await createNote(database.db, admin, {
      titulo: `Nota ${n}`,
      texto: "Texto.",
      enlaceImagen: "",
      enlacesAdicionales: [],
    });
});
afterAll(() => database?.close());

const now = new Date("2030-01-01T00:00:00Z");

test("one statement answers each viewer of an event page for themselves, in any order, again and again", async () => {
  for (let round = 0; round < 3; round++) {
    const [forMember, forOther, forVisitor] = await Promise.all([
      getEventForViewer(database.db, eventIds[0], member.id),
      getEventForViewer(database.db, eventIds[0], other.id),
      getEventForViewer(database.db, eventIds[0], null),
    ]);
    expect(forMember).toMatchObject({
      nombreEvento: "Evento 1",
      participating: true,
      seatsLeft: 2,
    });
    expect(forOther).toMatchObject({
      nombreEvento: "Evento 1",
      participating: false,
      seatsLeft: 2,
    });
    expect(forVisitor).toMatchObject({
      nombreEvento: "Evento 1",
      participating: false,
      seatsLeft: 2,
    });
    expect((await getEventForViewer(database.db, eventIds[1], member.id))?.participating).toBe(
      false,
    );
  }
  // Unknown and malformed ids: no event, and the statements still work after.
  expect(
    await getEventForViewer(database.db, "00000000-0000-4000-8000-000000000000", member.id),
  ).toBeNull();
  expect(await getEventForViewer(database.db, "no-es-un-id", null)).toBeNull();
  expect((await getEventForViewer(database.db, eventIds[4], null))?.nombreEvento).toBe("Evento 5");
});

test("the list statements take their page, size and moment from each call", async () => {
  const names = (cards: Array<{ nombreEvento: string }>) => cards.map((e) => e.nombreEvento);
  expect(names(await listUpcomingEvents(database.db, 2, now))).toEqual(["Evento 1", "Evento 2"]);
  expect(names(await listUpcomingEvents(database.db, 2, now, 2))).toEqual(["Evento 3", "Evento 4"]);
  // Each event runs 23:00–01:00 UTC (19:00–21:00 in La Paz): at 01:30 the day's one has ended.
  expect(names(await listUpcomingEvents(database.db, 3, new Date("2030-12-05T01:30:00Z")))).toEqual(
    ["Evento 5"],
  );
  const page = await listEventsPage(
    database.db,
    { pageSize: 2, upcomingOffset: 2, pastOffset: 0 },
    new Date("2030-12-03T01:30:00Z"),
  );
  expect(names(page.upcoming)).toEqual(["Evento 5"]);
  expect(names(page.past)).toEqual(["Evento 2", "Evento 1"]);
  expect(page.upcoming[0]!.startsAt).toBeInstanceOf(Date);
  expect([page.upcomingTotal, page.pastTotal]).toEqual([3, 2]);
  const later = await listEventsPage(
    database.db,
    { pageSize: 10, upcomingOffset: 0, pastOffset: 1 },
    new Date("2030-12-06T12:00:00Z"),
  );
  expect(names(later.upcoming)).toEqual([]);
  expect(names(later.past)).toEqual(["Evento 4", "Evento 3", "Evento 2", "Evento 1"]);
  expect((await listLatestNotes(database.db, 2)).map((n) => n.titulo)).toEqual([
    "Nota 3",
    "Nota 2",
  ]);
  expect(await listLatestNotes(database.db, 5)).toHaveLength(3);
});

testOnlyOn(
  "postgres",
  "named statements are what node-postgres sends; the embedded driver has none",
)("on PostgreSQL the page queries are named statements, parsed once per connection", async () => {
  // A transaction holds one connection: what it prepared is listed on that connection.
  const names = await database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await getEventForViewer(db, eventIds[0], member.id);
    await getEventForViewer(db, eventIds[0], null);
    await listUpcomingEvents(db, 3, now);
    await listEventsPage(db, { pageSize: 2, upcomingOffset: 0, pastOffset: 0 }, now);
    await listLatestNotes(db, 3);
    await getSessionUser(db, new Request("http://localhost/"), { secure: false });
    const { rows } = (await db.execute(
      sql`select name from pg_prepared_statements order by name`,
    )) as unknown as { rows: { name: string }[] };
    return rows.map((row) => row.name);
  });
  expect(names).toEqual(
    expect.arrayContaining([
      "ayllu_event_page_member",
      "ayllu_event_page_visitor",
      "ayllu_events_page",
      "ayllu_latest_notes",
      "ayllu_upcoming_events",
    ]),
  );
});
