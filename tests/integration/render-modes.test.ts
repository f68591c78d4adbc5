// Issue 40: pages rendered to a string (the default) are the same, byte for byte, as pages rendered
// through React's stream (PAGE_RENDER=stream, the path before), for a visitor, a member and an
// admin, on every kind of page — including a member whose name holds `</script>`, quotes and `<!--`.
// Two servers share one database; only the per-response nonce differs between their answers.
import { afterAll, beforeAll, expect, test } from "vitest";
import { competitionCategories } from "~/db/schema.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { ADMIN_EMAIL, createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let whole: TestServer;
let streamed: TestServer;

// One clock for both: pages that say when they were made ('Mis entradas') say the same.
const now = () => new Date("2026-11-28T12:00:00.000Z");

beforeAll(async () => {
  whole = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL, SEED_DEMO: "1" }, { now });
  streamed = await startTestServer(
    { ADMIN_EMAILS: ADMIN_EMAIL, PAGE_RENDER: "stream" },
    { database: whole.database, now },
  );
}, 120_000);
afterAll(async () => {
  await streamed?.close();
  await whole?.close();
});

failOnConsoleError();

const HOSTILE_NAME = `Ana "</script><!-- 'x' <b>&amp; -->`;

/**
 * The page from both servers, with the same cookies; the nonce (a visitor's page may come from a
 * server's page cache, which keeps pages without it) and each server's address taken out.
 */
async function bothOf(client: BrowserClient, path: string, headers: Record<string, string> = {}) {
  const answers = [];
  for (const server of [whole, streamed]) {
    const reply = await client.request("GET", new URL(path, server.url).href, { headers });
    answers.push({
      status: reply.status,
      type: reply.headers.get("content-type"),
      html: reply.text
        .replace(/ nonce="[^"]*"/g, "")
        .replaceAll(server.url.origin, "ORIGEN")
        .replaceAll(encodeURIComponent(server.url.origin), "ORIGEN")
        .replaceAll(server.url.host, "ORIGEN"),
    });
  }
  return answers as [(typeof answers)[number], (typeof answers)[number]];
}

/** Pages that do not exist: the same 404 page either way. Every other page answers 200. */
const MISSING = new Set([
  "/certificados/NO-EXISTE",
  "/no-existe",
  "/detalles/00000000-0000-4000-8000-000000000000",
]);

async function expectSame(client: BrowserClient, paths: string[], headers = {}) {
  for (const path of paths) {
    const [a, b] = await bothOf(client, path, headers);
    // A whole page each time, never a redirect whose empty bodies would compare equal.
    expect(a.status, path).toBe(MISSING.has(path) ? 404 : 200);
    expect(a.status, path).toBe(b.status);
    expect(a.type, path).toBe(b.type);
    // A difference shows where it starts.
    if (a.html !== b.html) {
      let at = 0;
      while (a.html[at] === b.html[at]) at++;
      const from = Math.max(0, at - 200);
      expect(a.html.slice(from, at + 200), path).toBe(b.html.slice(from, at + 200));
    }
    expect(a.html.length, path).toBeGreaterThan(500);
  }
}

/** The first item linked from a list page. */
async function firstItem(list: string, pattern: RegExp) {
  const html = (await new BrowserClient(whole.url).get(list)).text;
  const item = html.match(pattern)?.[1];
  expect(item, list).toBeTruthy();
  return item as string;
}

test("a visitor's pages, normal and light, are the same rendered to a string or streamed", async () => {
  const items = [
    await firstItem("/", /href="(\/detalles\/[0-9a-f-]{36})"/),
    await firstItem("/notas", /href="(\/notas\/[0-9a-f-]{36})"/),
    await firstItem("/proyectos", /href="(\/proyectos\/[0-9a-f-]{36})"/),
    await firstItem("/recursos", /href="(\/recursos\/[0-9a-f-]{36})"/),
  ];
  const pages = [
    "/",
    "/events",
    "/clase1",
    "/eventos",
    "/eventos?pasados=2",
    "/notas",
    "/recursos",
    "/proyectos",
    "/login",
    "/login/correo",
    "/certificados/NO-EXISTE",
    "/no-existe",
    `/detalles/00000000-0000-4000-8000-000000000000`,
    ...items,
  ];
  expect([whole.config.pageRender, streamed.config.pageRender]).toEqual(["string", "stream"]);
  const visitor = new BrowserClient(whole.url);
  await expectSame(visitor, pages);
  await expectSame(visitor, pages, { "Save-Data": "on" });
});

test("a member's and an admin's pages are the same, with a hostile name on them", async () => {
  const admin = await createAdmin(whole);
  const member = await createMember(whole, "hostil@example.com", HOSTILE_NAME);
  const event = await createTestEvent(whole.db, admin.user, { fechaEvento: "2099-03-01" });
  await whole.db.insert(competitionCategories).values({
    eventId: event.id,
    position: 0,
    name: `Sumo </script>`,
    level: "secundaria",
    minMembers: 2,
    maxMembers: 3,
    coachRequired: true,
    registrationClosesAt: new Date("2099-02-20T12:00:00Z"),
    format: "llaves",
  });
  const joined = await member.client.post(`/detalles/${event.id}`, { intent: "join" });
  expect(joined.status).toBe(302);
  // The confirmation is shown once, on the page it leads to.
  await member.client.get(`/detalles/${event.id}`);

  const memberPages = [
    "/",
    "/profile",
    "/mis-entradas",
    "/eventos",
    `/detalles/${event.id}`,
    "/notas",
  ];
  await expectSame(member.client, memberPages);
  const profile = (await member.client.get("/profile")).text;
  // The name is on the page, escaped, and never closes the page's scripts.
  expect(profile).toContain(
    "Ana &quot;&lt;/script&gt;&lt;!-- &#x27;x&#x27; &lt;b&gt;&amp;amp; --&gt;",
  );
  expect(profile).not.toContain(HOSTILE_NAME);

  await expectSame(admin.client, [
    "/admin",
    "/admin/sitio",
    "/admin/auditoria",
    `/admin/eventos/${event.id}`,
    `/admin/eventos/${event.id}/categorias`,
    `/admin/eventos/${event.id}/participantes`,
    `/admin/eventos/${event.id}/registro`,
    "/projectsandnotes",
    "/tesoreria",
    `/detalles/${event.id}`,
  ]);
}, 60_000);
