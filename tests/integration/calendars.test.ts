// Calendar feeds: /eventos.ics for everyone, and a member's own events by a secret link that
// they can renew. Every feed is read back by RFC 5545's rules: unfolded, then unescaped.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { users, type User } from "~/db/schema.server";
import { renewCalendarToken } from "~/events/calendar.server";
import { joinEvent } from "~/events/participation.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

interface Component {
  name: string;
  props: Map<string, string[]>;
  children: Component[];
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

/** Parses iCalendar text by RFC 5545: CRLF lines, unfolding, then components and properties. */
function parseIcs(raw: string): Component {
  expect(raw.endsWith("\r\n")).toBe(true);
  // No bare LF or CR: every line ends in CRLF.
  expect(raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  const physical = raw.slice(0, -2).split("\r\n");
  for (const line of physical) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
  const lines = raw
    .replace(/\r\n[ \t]/g, "")
    .slice(0, -2)
    .split("\r\n");
  const stack: Component[] = [{ name: "", props: new Map(), children: [] }];
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).split(";")[0]!;
    const value = line.slice(colon + 1);
    const top = stack[stack.length - 1]!;
    if (name === "BEGIN") {
      const child: Component = { name: value, props: new Map(), children: [] };
      top.children.push(child);
      stack.push(child);
    } else if (name === "END") {
      expect(top.name).toBe(value);
      stack.pop();
    } else {
      top.props.set(name, [...(top.props.get(name) ?? []), value]);
    }
  }
  expect(stack).toHaveLength(1);
  expect(stack[0]!.children).toHaveLength(1);
  return stack[0]!.children[0]!;
}

const prop = (c: Component, name: string) => c.props.get(name)?.[0];

test("/eventos.ics holds every upcoming event with a stable UID, DTSTART in UTC, DTSTAMP and escaped text that reads back exactly", async () => {
  const nombre = `Taller; con, comas \\ y ñandú ${randomUUID().slice(0, 6)}`;
  const descripcion = `Primera línea\nSegunda: ${"muy larga ".repeat(20)}`;
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: nombre,
    descripcion,
    fechaEvento: "2032-01-15",
    horaEvento: "18:30",
  });
  const reply = await new BrowserClient(server.url).get("/eventos.ics");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  const calendar = parseIcs(reply.text);
  expect(calendar.name).toBe("VCALENDAR");
  expect(prop(calendar, "VERSION")).toBe("2.0");
  expect(prop(calendar, "PRODID")).toBeTruthy();
  const found = calendar.children.filter(
    (c) => c.name === "VEVENT" && prop(c, "UID") === `${event.id}@${server.url.hostname}`,
  );
  expect(found).toHaveLength(1);
  const vevent = found[0]!;
  expect(unescapeText(prop(vevent, "SUMMARY")!)).toBe(nombre);
  expect(unescapeText(prop(vevent, "DESCRIPTION")!)).toContain(descripcion.trim());
  expect(prop(vevent, "DTSTART")).toBe("20320115T223000Z");
  expect(prop(vevent, "DTSTAMP")).toMatch(/^\d{8}T\d{6}Z$/);
  expect(prop(vevent, "URL")).toBe(`${server.url.origin}/detalles/${event.id}`);
  // The same UID on the next read: calendar apps update the event instead of adding another.
  const again = parseIcs((await new BrowserClient(server.url).get("/eventos.ics")).text);
  expect(again.children.filter((c) => prop(c, "UID") === prop(vevent, "UID"))).toHaveLength(1);
});

test("/eventos offers 'Suscribirse al calendario' as a webcal: link to the feed", async () => {
  const page = await new BrowserClient(server.url).get("/eventos");
  expect(page.text).toContain(
    `href="webcal://${server.url.host}/eventos.ics">Suscribirse al calendario</a>`,
  );
});

test("a member makes a private calendar link on /profile: it lists their own events only, is shown once, and renewing it makes the old link a 404", async () => {
  const mine = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Mío ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2032-02-02",
  });
  const other = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Ajeno ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2032-02-03",
  });
  const { client, user } = await createMember(server);
  await joinEvent(server.db, user, mine.id);

  const before = await client.get("/profile");
  expect(before.text).toContain("Crear enlace del calendario");
  const made = await client.post("/profile", { intent: "renewCalendar" });
  expect(made.status).toBe(200);
  const link = /value="(http:\/\/[^"]+\/calendario\/[^"]+\/eventos\.ics)"/.exec(made.text)?.[1];
  expect(link).toBeTruthy();
  expect(made.text).toContain(`href="${link!.replace(/^http:/, "webcal:")}"`);
  const token = link!.split("/")[4]!;
  // Only the hash is stored.
  const [row] = await server.db
    .select({ hash: users.calendarTokenHash })
    .from(users)
    .where(eq(users.id, user.id));
  expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(row!.hash).not.toContain(token);
  // Afterwards the page says a link exists, without showing it again.
  const later = await client.get("/profile");
  expect(later.text).not.toContain(token);
  expect(later.text).toContain("Renovar enlace");

  // The calendar app has no cookies.
  const app = new BrowserClient(server.url);
  const path = new URL(link!).pathname;
  const feed = await app.get(path);
  expect(feed.status).toBe(200);
  expect(feed.headers.get("cache-control")).toContain("no-store");
  const calendar = parseIcs(feed.text);
  const summaries = calendar.children.map((c) => unescapeText(prop(c, "SUMMARY")!));
  expect(summaries).toContain(mine.nombreEvento);
  expect(summaries).not.toContain(other.nombreEvento);
  await app.get(path);

  // Renewed as another server process would (no POST through this one to clear its memory).
  const next = await renewCalendarToken(server.db, user);
  expect(next).not.toBe(token);
  expect((await app.get(path)).status).toBe(404);
  expect((await app.get(`/calendario/${next}/eventos.ics`)).status).toBe(200);
});

test("unknown, malformed and guessed calendar tokens are a 404, and a visitor cannot make a link", async () => {
  const app = new BrowserClient(server.url);
  for (const token of ["x", "a".repeat(43), "%00", "a".repeat(500), randomUUID()]) {
    expect((await app.get(`/calendario/${token}/eventos.ics`)).status, token).toBe(404);
  }
  const visitor = await app.post("/profile", { intent: "renewCalendar" });
  expect(visitor.status).toBe(302);
  expect(visitor.location).toContain("/login");
  await expect(renewCalendarToken(server.db, null)).rejects.toThrow();
});
