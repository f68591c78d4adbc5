// 'Modo liviano' (docs/decisions/049-light-mode.md) over HTTP on the production build: Save-Data
// or the top menu's switch gives public pages without scripts or the web font; pages that need
// scripts keep them; the page cache keeps both variants apart and says so to shared caches; the
// switch refuses what it does not understand and never sends anyone to another site.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { User } from "~/db/schema.server";
import { isLightRequest, lightChoice } from "~/site/light-mode";
import { backTo } from "~/routes/system/light-mode";
import { SITE_MESSAGES } from "~/site/messages";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
let eventId: string;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  eventId = (await createTestEvent(server.db, admin.user, { nombreEvento: "Taller liviano" })).id;
});
afterAll(() => server?.close());

failOnConsoleError();

/** A script the browser runs (structured data, `application/ld+json`, is not one). */
const SCRIPT = /<script\b(?![^>]*application\/ld\+json)/;
const FONT_PRELOAD = /rel="preload"[^>]*as="font"/;

function visitor() {
  return new BrowserClient(server.url);
}

test("the switch's cookie wins over Save-Data, both ways; Save-Data alone turns light mode on", () => {
  expect(isLightRequest(undefined, "on")).toBe(true);
  expect(isLightRequest(undefined, "On")).toBe(true);
  expect(isLightRequest(undefined, undefined)).toBe(false);
  expect(isLightRequest(undefined, "off")).toBe(false);
  expect(isLightRequest("liviano=0", "on")).toBe(false);
  expect(isLightRequest("a=b; liviano=1", undefined)).toBe(true);
  expect(lightChoice("liviano=2")).toBeNull();
  expect(lightChoice("noliviano=1")).toBeNull();
  expect(lightChoice("x=1; liviano=0; y=2")).toBe(false);
});

test("public pages with Save-Data come without any script, the font's preload or the shader's start", async () => {
  const paths = [
    "/",
    "/events",
    "/clase1",
    "/eventos",
    `/detalles/${eventId}`,
    "/notas",
    "/recursos",
    "/proyectos",
    "/login",
    "/no-existe",
  ];
  for (const path of paths) {
    const normal = await visitor().get(path);
    const light = await visitor().get(path, { "Save-Data": "on" });
    expect(normal.text, path).toMatch(SCRIPT);
    expect(normal.text, path).toMatch(FONT_PRELOAD);
    expect(light.status, path).toBe(normal.status);
    expect(light.text, path).not.toMatch(SCRIPT);
    expect(light.text, path).not.toMatch(FONT_PRELOAD);
    expect(light.text, path).toContain("data-liviano");
    expect(light.text, path).toContain("Desactivar el modo liviano");
    // Nothing that only an animation takes away (the /events loading logo would stay forever).
    expect(light.text, path).not.toContain("loading-overlay");
  }
});

test("the page cache keeps the light and the normal page apart and says it varies with Save-Data", async () => {
  for (let round = 0; round < 2; round++) {
    const light = await visitor().get("/eventos", { "Save-Data": "on" });
    const normal = await visitor().get("/eventos");
    expect(light.text).not.toMatch(SCRIPT);
    expect(normal.text).toMatch(SCRIPT);
    expect(light.headers.get("vary")).toContain("Save-Data");
    expect(normal.headers.get("vary")).toContain("Save-Data");
    expect(light.headers.get("cache-control")).toContain("public");
  }
});

test("the menu's switch remembers the choice for a year, goes back to the page, and keeps the choice out of shared caches", async () => {
  const client = visitor();
  const on = await client.post("/liviano", { modo: "liviano", volver: "/eventos?pagina=2" });
  expect(on.status).toBe(303);
  expect(on.location).toBe(new URL("/eventos?pagina=2", server.url).toString());
  const cookie = on.headers.getSetCookie().join("\n");
  expect(cookie).toMatch(/^liviano=1; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/);
  const page = await client.get("/eventos");
  expect(page.text).not.toMatch(SCRIPT);
  expect(page.headers.get("cache-control")).not.toContain("public");
  // Answered from the page cache too, it stays out of shared caches.
  const again = await client.get("/eventos");
  expect(again.text).not.toMatch(SCRIPT);
  expect(again.text).toContain("Desactivar el modo liviano");
  expect(again.headers.get("cache-control")).toBe("private, max-age=0");
  // Turned off again, it stays off even where the browser asks to save data.
  await client.post("/liviano", { modo: "normal", volver: "/eventos" });
  expect(client.cookies.get("liviano")).toBe("0");
  const off = await client.get("/eventos", { "Save-Data": "on" });
  expect(off.text).toMatch(SCRIPT);
  expect(off.headers.get("cache-control")).not.toContain("public");
});

test("pages that need scripts keep them in light mode, and a member's menu is a disclosure on public pages", async () => {
  admin.client.cookies.set("liviano", "1");
  try {
    const panel = await admin.client.get("/admin");
    expect(panel.status).toBe(200);
    expect(panel.text).toMatch(SCRIPT);
    expect(panel.text).not.toContain('<details class="user-menu"');
    const event = await admin.client.get(`/detalles/${eventId}`);
    expect(event.text).not.toMatch(SCRIPT);
    expect(event.text).toContain('<details class="user-menu"');
    expect(event.text).toContain('<details class="nav-disclosure"');
    // Every entry of the member's menu is a plain link, signing out too: its page, with scripts,
    // asks the phone whether entries wait to be sent, then posts.
    expect(event.text).toContain('href="/admin"');
    expect(event.text).toContain('href="/cerrar-sesion"');
    expect(event.text).not.toMatch(/<form[^>]*action="\/logout"/);
    const signOut = await admin.client.get("/cerrar-sesion");
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get("cache-control")).toContain("no-store");
    expect(signOut.text).toMatch(SCRIPT);
    expect(signOut.text).toMatch(/<noscript><form[^>]*action="\/logout" method="post"/);
  } finally {
    admin.client.cookies.delete("liviano");
  }
});

test("a member in light mode still joins an event with the plain form", async () => {
  const member = await createMember(server);
  member.client.cookies.set("liviano", "1");
  const page = await member.client.get(`/detalles/${eventId}`);
  expect(page.text).not.toMatch(SCRIPT);
  expect(page.text).toContain("Participar");
  const joined = await member.client.post(`/detalles/${eventId}`, { intent: "join" });
  expect(joined.status).toBeLessThan(400);
  const after = await member.client.get(`/detalles/${eventId}`);
  expect(after.text).toContain("Dejar de Participar");
});

test("the switch refuses an unknown choice and a body that is not a form, and changes nothing", async () => {
  const bodies: Array<Record<string, string | string[]>> = [
    {},
    { modo: "oscuro" },
    { modo: "" },
    { modo: ["liviano", "normal"] },
  ];
  for (const fields of bodies) {
    const client = visitor();
    const reply = await client.post("/liviano", fields);
    expect(reply.status, JSON.stringify(fields)).toBe(400);
    expect(reply.text).toContain(SITE_MESSAGES.lightModeInvalid);
    expect(client.cookies.has("liviano")).toBe(false);
  }
  const client = visitor();
  const json = await client.request("POST", "/liviano", {
    body: JSON.stringify({ modo: "liviano" }),
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  expect(client.cookies.has("liviano")).toBe(false);
  // A GET goes home.
  const get = await visitor().get("/liviano");
  expect(get.status).toBe(302);
});

test("the switch only ever goes back to a page of this site", async () => {
  for (const hostile of [
    "https://malo.example/",
    "//malo.example/x",
    "/\\malo.example",
    "javascript:alert(1)",
    "eventos",
    "/a\r\nSet-Cookie: x=1",
    `/${"a".repeat(2001)}`,
  ]) {
    const reply = await visitor().post("/liviano", { modo: "liviano", volver: hostile });
    expect(reply.status, hostile).toBe(303);
    expect(reply.location, hostile).toBe(new URL("/", server.url).toString());
  }
  expect(backTo("/notas/abc?x=1#y")).toBe("/notas/abc?x=1#y");
  expect(backTo(null)).toBe("/");
});
