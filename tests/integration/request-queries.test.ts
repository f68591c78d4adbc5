// What one signed-in request asks the database: the session once, whatever number of loaders and
// guards want the member, and each page's own data in one query.
import { afterAll, beforeAll, expect, test } from "vitest";
import { competitionCategories, type User } from "~/db/schema.server";
import { failOnConsoleError } from "../helpers/console";
import type { BrowserClient } from "../helpers/browser-client";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

// The payment workers (holds running out, their reminders) look on timers of their own, on the
// same handle; on a busy machine a look lands inside a request's count. Only they ask for holds
// ending by a time.
const PAYMENT_WORKER = /"payments"\."held_until" <= \$/;

let server: TestServer;
let member: { client: BrowserClient; user: User };
let queries: string[] = [];

beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_EMAILS: "jefa@example.com" },
    {
      // The mail worker runs in the same process, on the same handle, whenever mail is queued
      // (the welcome of each member made here): its statements belong to no request.
      onQuery: (query) => {
        if (!/\bmail_outbox\b/.test(query) && !PAYMENT_WORKER.test(query)) queries.push(query);
      },
    },
  );
  member = await createMember(server);
});
afterAll(() => server?.close());

failOnConsoleError();

/** The statements the server sent while answering `run`. */
async function queriesOf(run: () => Promise<{ status: number }>, status = 200) {
  queries = [];
  const reply = await run();
  expect(reply.status).toBe(status);
  return queries;
}

const sessionReads = (sent: string[]) =>
  sent.filter((q) => /^select\b/i.test(q) && /from "sessions"/.test(q));

test("a member's event page reads the session once and the event, its gallery and the member's place in one more query", async () => {
  const admin = await createAdmin(server);
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2099-05-01" });
  // On PostgreSQL the new event's NOTIFY reaches the server's memories a moment later, and may
  // land during the first visit (which then reads the lists again): count a second visit.
  await member.client.get(`/detalles/${event.id}`);
  const sent = await queriesOf(() => member.client.get(`/detalles/${event.id}`));
  expect(sessionReads(sent)).toHaveLength(1);
  expect(sent, sent.join("\n\n")).toHaveLength(2);
});

test("a competition's page reads its categories in one query more; other events never ask for them", async () => {
  const admin = await createAdmin(server);
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2099-05-02" });
  await server.db.insert(competitionCategories).values({
    eventId: event.id,
    position: 0,
    name: "Sumo",
    level: "abierta",
    minMembers: 1,
    maxMembers: 3,
    coachRequired: false,
    registrationClosesAt: new Date("2099-04-30T12:00:00Z"),
    format: "llaves",
  });
  await member.client.get(`/detalles/${event.id}`);
  const sent = await queriesOf(() => member.client.get(`/detalles/${event.id}`));
  expect(sent, sent.join("\n\n")).toHaveLength(3);
  expect(sent.filter((q) => /from "competition_categories"/.test(q))).toHaveLength(1);
});

test("a member's /eventos reads the session once and both lists in one more query, their counts from memory", async () => {
  // When each event starts is read once after a change to the events, then kept.
  await member.client.get("/eventos");
  const sent = await queriesOf(() => member.client.get("/eventos?pasados=2"));
  expect(sessionReads(sent)).toHaveLength(1);
  expect(sent).toHaveLength(2);
});

test("a member's home page and profile read the session once", async () => {
  for (const page of ["/", "/inicio", "/profile", "/notas"]) {
    const sent = await queriesOf(() => member.client.get(page));
    expect(sessionReads(sent), page).toHaveLength(1);
  }
});

test("joining an event reads the session once, though both the route and the profile guard ask for the member", async () => {
  const admin = await createAdmin(server);
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2099-06-01" });
  const sent = await queriesOf(
    () => member.client.post(`/detalles/${event.id}`, { intent: "join" }),
    302,
  );
  expect(sessionReads(sent)).toHaveLength(1);
});
