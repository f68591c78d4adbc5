// Seats and the waiting list: 100 joins at once for 10 seats, promotion when someone leaves, a
// capacity lowered or raised, and what the event page says to a visitor and to a member.
import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { EventSchema } from "~/events/schemas";
import { events, eventWaitlist, participations, users, type User } from "~/db/schema.server";
import { setCheckedIn } from "~/attendance/attendance.server";
import { renewCalendarToken } from "~/events/calendar.server";
import { getEventForViewer } from "~/events/event.server";
import { updateEvent } from "~/events/event-commands.server";
import { deleteAccount, type MemberData } from "~/member-data.server";
import { joinEvent, leaveEvent, leaveWaitlist } from "~/events/participation.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { databaseName, testOnlyOn } from "../helpers/database";
import {
  VALID_EVENT,
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  landOn,
  openForCheckIn,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

/** The member's place on the waiting list, as the event page reads it. */
async function waitlistPosition(db: TestServer["db"], userId: string, eventId: string) {
  return (await getEventForViewer(db, eventId, userId))?.waiting ?? null;
}
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

async function newMembers(count: number, label = "cupo") {
  return server.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        issuer: "https://test.invalid",
        subject: `${label}-${randomUUID()}-${i}`,
        email: `${label}-${i}-${randomUUID()}@example.com`,
        nombreCompleto: `${label} ${i}`,
      })),
    )
    .returning();
}

async function participantIds(eventId: string) {
  const rows = await server.db
    .select({ userId: participations.userId, joinedAt: participations.joinedAt })
    .from(participations)
    .where(eq(participations.eventId, eventId));
  return rows;
}

async function waitingRows(eventId: string) {
  return server.db
    .select({ userId: eventWaitlist.userId, createdAt: eventWaitlist.createdAt })
    .from(eventWaitlist)
    .where(eq(eventWaitlist.eventId, eventId))
    .orderBy(asc(eventWaitlist.createdAt), asc(eventWaitlist.userId));
}

function seatsLine(html: string): string | null {
  return /<dt>Plazas<\/dt><dd[^>]*>([^<]*)<\/dd>/.exec(html)?.[1] ?? null;
}

function buttonOf(html: string): string {
  for (const label of [
    "Salir de la lista de espera",
    "Unirse a la lista de espera",
    "Dejar de Participar",
    "Participar",
    "Evento Finalizado",
    "Inicia Sesión para Participar",
  ]) {
    if (new RegExp(`>${label}</(a|button)>`).test(html)) return label;
  }
  return "";
}

/** 100 members join an event of 10 seats at once. */
async function hundredJoinAtOnce(day: string) {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: day, capacity: "10" });
  const members = await newMembers(100);
  const outcomes = await Promise.all(members.map((m) => joinEvent(server.db, m, event.id)));
  return { event, members, outcomes };
}

test(`100 members joining an event of 10 seats at once give exactly 10 participants and 90 waiting in order of arrival (${databaseName})`, async () => {
  const { event, members, outcomes } = await hundredJoinAtOnce("2031-03-03");
  expect(outcomes.filter((o) => o === "joined")).toHaveLength(10);
  expect(outcomes.filter((o) => o === "waiting")).toHaveLength(90);

  const seated = await participantIds(event.id);
  const waiting = await waitingRows(event.id);
  expect(seated).toHaveLength(10);
  expect(waiting).toHaveLength(90);
  // Nobody is both seated and waiting; whoever was told "joined" has the seat.
  const seatedIds = new Set(seated.map((p) => p.userId));
  expect(waiting.some((w) => seatedIds.has(w.userId))).toBe(false);
  members.forEach((m, i) => expect(seatedIds.has(m.id)).toBe(outcomes[i] === "joined"));
  // Arrival order: the waiting list is a strict sequence, every place after every seat taken,
  // and each member's position is their place in it.
  const lastSeat = Math.max(...seated.map((p) => p.joinedAt.getTime()));
  for (let i = 0; i < waiting.length; i++) {
    expect(waiting[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(lastSeat);
    if (i > 0) expect(waiting[i]!.createdAt > waiting[i - 1]!.createdAt).toBe(true);
  }
  const positions = await Promise.all(
    waiting.map((w) => waitlistPosition(server.db, w.userId, event.id)),
  );
  expect(positions).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
});

testOnlyOn(
  "embedded",
  "it runs one transaction at a time, in the order they were asked for; PostgreSQL runs them side by side",
)(
  "100 members joining an event of 10 seats at once: the first 10 to ask are seated and the other 90 wait in the order they asked",
  async () => {
    const { event, members } = await hundredJoinAtOnce("2031-03-05");
    const seated = await participantIds(event.id);
    const waiting = await waitingRows(event.id);
    expect(seated.map((p) => p.userId).sort()).toEqual(
      members
        .slice(0, 10)
        .map((m) => m.id)
        .sort(),
    );
    expect(waiting.map((w) => w.userId)).toEqual(members.slice(10).map((m) => m.id));
  },
);

test("when a participant leaves, the first person waiting has the seat as soon as the leave returns", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-04-04",
    capacity: "2",
  });
  const [a, b, c, d] = await newMembers(4, "deja");
  for (const m of [a!, b!, c!, d!]) await joinEvent(server.db, m, event.id);
  expect((await waitingRows(event.id)).map((w) => w.userId)).toEqual([c!.id, d!.id]);

  await leaveEvent(server.db, a!, event.id);
  const seated = (await participantIds(event.id)).map((p) => p.userId).sort();
  expect(seated).toEqual([b!.id, c!.id].sort());
  expect((await waitingRows(event.id)).map((w) => w.userId)).toEqual([d!.id]);
  expect(await waitlistPosition(server.db, d!.id, event.id)).toBe(1);
  expect(await waitlistPosition(server.db, c!.id, event.id)).toBeNull();

  // Leaving the waiting list gives nobody a seat and frees no place.
  await leaveWaitlist(server.db, d!, event.id);
  expect(await waitingRows(event.id)).toEqual([]);
  expect(await participantIds(event.id)).toHaveLength(2);
});

test("100 joins and leaves at once on a full event never seat more than its capacity", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-04-05",
    capacity: "5",
  });
  const first = await newMembers(5, "primeros");
  for (const m of first) await joinEvent(server.db, m, event.id);
  const later = await newMembers(50, "despues");
  await Promise.all([
    ...later.map((m) => joinEvent(server.db, m, event.id)),
    ...first.map((m) => leaveEvent(server.db, m, event.id)),
  ]);
  expect(await participantIds(event.id)).toHaveLength(5);
  expect(await waitingRows(event.id)).toHaveLength(45);
});

test("lowering the capacity below the participants keeps them all and sends the next joins to the waiting list; raising it seats those waiting", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-05-05",
    capacity: "5",
  });
  const members = await newMembers(6, "baja");
  for (const m of members.slice(0, 4)) await joinEvent(server.db, m, event.id);
  const input = (capacity: string) =>
    EventSchema.parse({ ...VALID_EVENT, fechaEvento: "2031-05-05", capacity });

  await updateEvent(server.db, admin.user, event.id, input("2"), "America/La_Paz");
  expect(await participantIds(event.id)).toHaveLength(4);
  expect(await joinEvent(server.db, members[4]!, event.id)).toBe("waiting");
  expect(await joinEvent(server.db, members[5]!, event.id)).toBe("waiting");
  // One leaves: still above the capacity, so nobody moves up.
  await leaveEvent(server.db, members[0]!, event.id);
  expect(await participantIds(event.id)).toHaveLength(3);
  expect(await waitingRows(event.id)).toHaveLength(2);

  await updateEvent(server.db, admin.user, event.id, input("4"), "America/La_Paz");
  expect((await participantIds(event.id)).map((p) => p.userId)).toContain(members[4]!.id);
  expect((await waitingRows(event.id)).map((w) => w.userId)).toEqual([members[5]!.id]);
  // No capacity at all: everyone waiting is seated.
  await updateEvent(server.db, admin.user, event.id, input(""), "America/La_Paz");
  expect(await participantIds(event.id)).toHaveLength(5);
  expect(await waitingRows(event.id)).toEqual([]);
});

test("the event page counts seats down to 'Cupo completo', then a member joins the waiting list, sees their position and leaves it", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-06-06",
    capacity: "2",
  });
  const visitor = new BrowserClient(server.url);
  expect(seatsLine((await visitor.get(`/detalles/${event.id}`)).text)).toBe("Quedan 2 plazas");
  const first = await createMember(server);
  await landOn(first.client, await first.client.post(`/detalles/${event.id}`, { intent: "join" }));
  expect(seatsLine((await visitor.get(`/detalles/${event.id}`)).text)).toBe("Queda 1 plaza");
  const second = await createMember(server);
  await second.client.post(`/detalles/${event.id}`, { intent: "join" });
  const full = await visitor.get(`/detalles/${event.id}`);
  expect(seatsLine(full.text)).toBe("Cupo completo");
  expect(buttonOf(full.text)).toBe("Inicia Sesión para Participar");

  const third = await createMember(server);
  const page = await third.client.get(`/detalles/${event.id}`);
  expect(buttonOf(page.text)).toBe("Unirse a la lista de espera");
  const joined = await landOn(
    third.client,
    await third.client.post(`/detalles/${event.id}`, { intent: "join" }),
  );
  expect(alertsIn(joined.text)).toEqual([MESSAGES.waitlistJoined]);
  expect(joined.text).toContain("Estás en la lista de espera: posición <!-- -->1");
  expect(buttonOf(joined.text)).toBe("Salir de la lista de espera");

  const left = await landOn(
    third.client,
    await third.client.post(`/detalles/${event.id}`, { intent: "leaveWaitlist" }),
  );
  expect(alertsIn(left.text)).toEqual([MESSAGES.waitlistLeft]);
  expect(buttonOf(left.text)).toBe("Unirse a la lista de espera");
  expect(await waitingRows(event.id)).toEqual([]);
});

test("a member promoted from the waiting list finds 'Dejar de Participar' on the page", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-07-07",
    capacity: "1",
  });
  const first = await createMember(server);
  const second = await createMember(server);
  await first.client.post(`/detalles/${event.id}`, { intent: "join" });
  await second.client.post(`/detalles/${event.id}`, { intent: "join" });
  expect(await waitlistPosition(server.db, second.user.id, event.id)).toBe(1);
  await first.client.post(`/detalles/${event.id}`, { intent: "leave" });
  const page = await second.client.get(`/detalles/${event.id}`);
  expect(buttonOf(page.text)).toBe("Dejar de Participar");
  expect(page.text).not.toContain("Estás en la lista de espera");
});

test("an event without a capacity shows no seats and never has a waiting list", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-08-08" });
  const members = await newMembers(30, "libre");
  await Promise.all(members.map((m) => joinEvent(server.db, m, event.id)));
  expect(await participantIds(event.id)).toHaveLength(30);
  expect(await waitingRows(event.id)).toEqual([]);
  expect(seatsLine((await new BrowserClient(server.url).get(`/detalles/${event.id}`)).text)).toBe(
    null,
  );
});

test("leaving a waiting list of an unknown or malformed event is a 404 and a visitor is sent to sign in", async () => {
  const { client } = await createMember(server);
  expect((await client.post(`/detalles/${randomUUID()}`, { intent: "leaveWaitlist" })).status).toBe(
    404,
  );
  expect((await client.post(`/detalles/no-es-un-id`, { intent: "leaveWaitlist" })).status).toBe(
    404,
  );
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-09-09",
    capacity: "1",
  });
  const reply = await new BrowserClient(server.url).post(`/detalles/${event.id}`, {
    intent: "join",
  });
  expect(reply.status).toBe(302);
  expect(reply.location).toContain("/login");
  expect(await participantIds(event.id)).toEqual([]);
});

test("the database refuses a capacity below 1 whatever writes it", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-10-10" });
  await expect(
    server.db.execute(sql`update events set capacity = 0 where id = ${event.id}`),
  ).rejects.toThrow();
  const [row] = await server.db
    .select({ capacity: events.capacity })
    .from(events)
    .where(eq(events.id, event.id));
  expect(row!.capacity).toBeNull();
});

test("/profile keeps past events in 'Eventos Participando' as history, 'Asistió' when checked in and 'Inscrito' otherwise, and lists the waiting lists with the member's place", async () => {
  const { client, user } = await createMember(server);
  const came = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Vino al taller",
    fechaEvento: "2024-03-03",
  });
  const skipped = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Se inscribió nomás",
    fechaEvento: "2024-04-04",
  });
  const before = new Date("2024-01-01T00:00:00Z");
  await joinEvent(server.db, user, came.id, before);
  await joinEvent(server.db, user, skipped.id, before);
  await setCheckedIn(server.db, admin.user, came.id, user.id, true);
  const full = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Lleno hasta el techo",
    fechaEvento: "2032-05-05",
    capacity: "1",
  });
  const [other] = await newMembers(1, "lleno");
  await joinEvent(server.db, other!, full.id);
  expect(await joinEvent(server.db, user, full.id)).toBe("waiting");

  const page = (await client.get("/profile")).text;
  const list = page.slice(page.indexOf(">Eventos Participando</h2>"));
  expect(list).toMatch(/Vino al taller[\s\S]*?>Asistió<\/span>/);
  expect(list).toMatch(/Se inscribió nomás[\s\S]*?>Inscrito<\/span>/);
  expect(list).not.toContain("No estás participando en ningún evento aún.");
  expect(page).toMatch(
    /En lista de espera<\/h2>[\s\S]*Lleno hasta el techo[\s\S]*posición <!-- -->1/,
  );
});

test("'Descargar mis datos' holds check-ins, places on waiting lists and whether a calendar link exists, never its secret", async () => {
  const { client, user } = await createMember(server);
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Exportado",
    fechaEvento: "2032-06-06",
    capacity: "1",
  });
  const waitingFor = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Esperado",
    fechaEvento: "2032-06-07",
    capacity: "1",
  });
  const [other] = await newMembers(1, "export");
  await joinEvent(server.db, other!, waitingFor.id);
  await joinEvent(server.db, user, event.id);
  await joinEvent(server.db, user, waitingFor.id);
  await openForCheckIn(server.db, event.id);
  await setCheckedIn(server.db, admin.user, event.id, user.id, true);
  const first = JSON.parse((await client.get("/profile/datos")).text) as MemberData;
  expect(first.calendarioPrivado).toBe(false);
  const token = await renewCalendarToken(server.db, user);

  const reply = await client.get("/profile/datos");
  const body = JSON.parse(reply.text) as MemberData;
  expect(body.participaciones.find((p) => p.eventId === event.id)?.checkedInAt).toMatch(/^\d{4}-/);
  expect(body.listasDeEspera).toEqual([
    { eventId: waitingFor.id, nombreEvento: "Esperado", desde: expect.any(String) },
  ]);
  expect(body.calendarioPrivado).toBe(true);
  const [row] = await server.db
    .select({ hash: users.calendarTokenHash })
    .from(users)
    .where(eq(users.id, user.id));
  expect(reply.text).not.toContain(token);
  expect(reply.text).not.toContain(row!.hash!);
});

test("deleting an account removes its places on waiting lists and gives its seats to the first person waiting", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2032-07-07",
    capacity: "1",
  });
  const other = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2032-07-08",
    capacity: "1",
  });
  const leaving = await createMember(server);
  const [waiting, holder] = await newMembers(2, "borra");
  await joinEvent(server.db, leaving.user, event.id);
  await joinEvent(server.db, waiting!, event.id);
  await joinEvent(server.db, holder!, other.id);
  await joinEvent(server.db, leaving.user, other.id);
  expect(await waitlistPosition(server.db, leaving.user.id, other.id)).toBe(1);

  await deleteAccount(server.db, leaving.user);
  expect((await participantIds(event.id)).map((p) => p.userId)).toEqual([waiting!.id]);
  expect(await waitingRows(event.id)).toEqual([]);
  expect(await waitingRows(other.id)).toEqual([]);
  expect((await participantIds(other.id)).map((p) => p.userId)).toEqual([holder!.id]);
});
