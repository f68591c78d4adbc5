// Every route of the route table, every intent of its action, and a table of bodies that are not
// forms: none may answer a server error, and an action answers 400 with a Spanish message and
// changes nothing. The routes come from app/routes.ts itself, so a new route is covered by itself.
import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import routeTable from "~/routes";
import { events, users } from "~/db/schema.server";
import { MESSAGES } from "~/messages";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent, fingerprint } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let eventId: string;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  const created = await createAdmin(server);
  eventId = (await createTestEvent(server.db, created.user)).id;
});
afterAll(() => server?.close());

failOnConsoleError();

interface RouteUnderTest {
  path: string;
  hasAction: boolean;
  intents: string[];
}

function flatten(entries: RouteConfigEntry[], prefix = ""): RouteConfigEntry[] {
  return entries.flatMap((entry) => {
    const full = { ...entry, path: [prefix, entry.path ?? ""].filter(Boolean).join("/") };
    return [full, ...flatten(entry.children ?? [], full.path)];
  });
}

/** The routes of app/routes.ts, whether they act, and their intents. */
function routesUnderTest(): RouteUnderTest[] {
  return flatten(routeTable).map((entry) => {
    const file = path.join(PROJECT_ROOT, "app", entry.file);
    const source = fs.readFileSync(file, "utf8");
    const hasAction = /export (async )?function action\b|export const action\b/.test(source);
    const intents = new Set<string>();
    // A route whose action dispatches through a map of intent → handler keeps it beside itself.
    const handlers = file.replace(/\.tsx?$/, ".server.ts");
    const map = fs.existsSync(handlers)
      ? /_ACTIONS\b[^\n]*= \{\n([\s\S]*?)\n\};/.exec(fs.readFileSync(handlers, "utf8"))?.[1]
      : undefined;
    for (const m of (map ?? "").matchAll(/^ {2}"?([\w-]+)"?[:,]/gm)) intents.add(m[1]!);
    for (const m of source.matchAll(/name="intent"\s+value="([\w-]+)"/g)) intents.add(m[1]!);
    for (const m of source.matchAll(/case "([\w-]+)":/g)) intents.add(m[1]!);
    for (const m of source.matchAll(/intent === "([\w-]+)"/g)) intents.add(m[1]!);
    return { path: `/${entry.path ?? ""}`, hasAction, intents: [...intents] };
  });
}

const BOUNDARY = "----ayllu-prueba";

/** A route's path with its parameters filled in: the real event for :eventId, an unknown id elsewhere. */
function filled(routePath: string): string {
  return routePath
    .replace(":eventId", eventId)
    .replace(/:\w+\??/g, "00000000-0000-4000-8000-000000000000")
    .replace("*", "no-existe");
}

/** Bodies that are not forms, each with the intent it pretends to carry. */
function badBodies(intent: string): { name: string; body?: BodyInit; type?: string }[] {
  return [
    { name: "no body, no content type" },
    { name: "no body, multipart", type: `multipart/form-data; boundary=${BOUNDARY}` },
    { name: "JSON", type: "application/json", body: JSON.stringify({ intent }) },
    { name: "plain text", type: "text/plain", body: `intent=${intent}` },
    {
      name: "multipart without its boundary",
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      body: `intent=${intent}\r\n`,
    },
    {
      name: "multipart with an unterminated part",
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${intent}`,
    },
    {
      name: "multipart with no boundary parameter",
      type: "multipart/form-data",
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${intent}\r\n--${BOUNDARY}--\r\n`,
    },
    { name: "XML", type: "application/xml", body: `<intent>${intent}</intent>` },
  ];
}

/** Forms that parse but hold what no field expects. */
function oddForms(intent: string): { name: string; body: string; type?: string }[] {
  return [
    {
      name: "a file in a text field",
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      body:
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${intent}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="nombreEvento"; filename="x.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nhola\r\n--${BOUNDARY}--\r\n`,
    },
    { name: "NUL everywhere", body: `intent=${intent}&eventId=%00&userId=%00&id=%00&q=%00` },
    { name: "broken percent-encoding", body: `intent=${intent}&eventId=%E0%A4%A&x=%` },
    { name: "repeated fields", body: `intent=${intent}&intent=${intent}&eventId=a&eventId=b` },
    { name: "not UTF-8", body: `intent=${intent}&nombreEvento=%FF%FE%FD` },
  ];
}

test("the data's fingerprint changes with each table it covers", async () => {
  const before = await fingerprint(server.db);
  await server.db.update(events).set({ nombreEvento: "Cambiado" }).where(eq(events.id, eventId));
  const renamed = await fingerprint(server.db);
  expect(renamed).not.toBe(before);
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.email, "nadie@example.com"));
  expect(await fingerprint(server.db)).toBe(renamed);
  const member = await createMember(server, "huella@example.com", "Huella");
  const joined = await fingerprint(server.db);
  expect(joined).not.toBe(renamed);
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, member.user.id));
  expect(await fingerprint(server.db)).not.toBe(joined);
});

for (const route of routesUnderTest()) {
  test(`POST ${route.path}: malformed bodies never answer 5xx; an action answers 400 and changes nothing`, async () => {
    // Signed in afresh for each route: an odd but well-formed form may sign its sender out.
    const admin = (await createAdmin(server)).client;
    const visitor = new BrowserClient(server.url);
    const intents = route.intents.length > 0 ? route.intents : [""];
    const page = filled(route.path);
    for (const target of [page, `${page === "/" ? "/_root" : page}.data`]) {
      // A body that is not a form cannot be read, so the intent written in it reaches no action:
      // every intent of the route meets the same refusal, and the first one stands for them all.
      // The forms that parse (below) go with each intent, since they reach each one's code.
      for (const [i, intent] of intents.entries()) {
        // Each refused body leaves the data as it was before it, so as it was here (the tables
        // `snapshot` compares, hashed by the database: one query per body).
        const before = await fingerprint(server.db);
        for (const client of i === 0 ? [admin, visitor] : []) {
          const who = client === admin ? "admin" : "visitante";
          for (const bad of badBodies(intent)) {
            const reply = await client.request("POST", target, {
              body: bad.body,
              headers: bad.type ? { "Content-Type": bad.type } : {},
            });
            const label = `${who} ${target} ${intent} ${bad.name}`;
            expect(reply.status, label).toBeLessThan(500);
            if (!route.hasAction) {
              expect(reply.status, label).toBe(405);
              expect(reply.headers.get("allow") ?? "", label).not.toMatch(/POST/);
            } else if (!(reply.status >= 300 && reply.status < 400) && reply.status !== 202) {
              // Refused before or when the body is read; a redirect (202 for .data: to /login, or away from a
              // page the sender has no business on) comes before reading it.
              expect([400, 403], label).toContain(reply.status);
              if (reply.status === 400 && !target.endsWith(".data"))
                expect(reply.text, label).toContain(MESSAGES.badFormBody);
            }
            expect(reply.text, label).not.toMatch(/node_modules|\.server\.|\bat \S+ \(/);
            expect(await fingerprint(server.db), label).toBe(before);
          }
        }
        for (const client of [admin, visitor]) {
          const who = client === admin ? "admin" : "visitante";
          for (const odd of oddForms(intent)) {
            const reply = await client.request("POST", target, {
              body: odd.body,
              headers: { "Content-Type": odd.type ?? "application/x-www-form-urlencoded" },
            });
            const label = `${who} ${target} ${intent} ${odd.name}`;
            expect(reply.status, label).toBeLessThan(500);
            expect(reply.text, label).not.toMatch(/node_modules|\.server\.|\bat \S+ \(/);
          }
        }
      }
    }
  });
}
