// /sitemap.xml on a large site: past SITEMAP_PART_SIZE pages it is an index of parts, and the
// parts together list every public page once.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SITEMAP_PART_SIZE } from "~/site/sitemap.server";
import { failOnConsoleError } from "../helpers/console";
import { BrowserClient } from "../helpers/browser-client";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
const EVENTS = SITEMAP_PART_SIZE + 5;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.execute(sql`
    insert into events (nombre_evento, ubicacion_evento, tipo_evento, fecha_evento, hora_evento,
                        starts_at, ends_at, imagen_enlace, descripcion, published_by_name)
    select 'Evento ' || g, 'Bolivia, La Paz', 'Presencial', date '2030-01-01' + g, time '19:00',
           (date '2030-01-01' + g) + time '23:00',
           (date '2030-01-01' + g) + time '23:59', '/demo/vision.svg', 'Texto', 'Admin'
    from generate_series(1, ${EVENTS}) g`);
});
afterAll(() => server?.close());

failOnConsoleError();

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

test("past SITEMAP_PART_SIZE pages /sitemap.xml is an index of parts that together list every page once", async () => {
  const client = new BrowserClient(server.url);
  const index = await client.get("/sitemap.xml");
  expect(index.status).toBe(200);
  expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  expect(index.text).toContain("<sitemapindex");
  const parts = locs(index.text.replaceAll("&amp;", "&"));
  expect(parts).toEqual([
    `${server.url.origin}/sitemap.xml?parte=1`,
    `${server.url.origin}/sitemap.xml?parte=2`,
  ]);

  const listed: string[] = [];
  for (const part of parts) {
    const reply = await client.get(part);
    expect(reply.status).toBe(200);
    expect(reply.text).toContain("<urlset");
    const urls = locs(reply.text);
    expect(urls.length).toBeLessThanOrEqual(SITEMAP_PART_SIZE);
    listed.push(...urls);
  }
  expect(new Set(listed).size).toBe(listed.length);
  const events = listed.filter((url) => url.includes("/detalles/"));
  expect(events).toHaveLength(EVENTS);
  expect(listed).toContain(`${server.url.origin}/eventos`);
});

test("a sitemap part that does not exist is a 404 with a message, not an error", async () => {
  const client = new BrowserClient(server.url);
  for (const part of ["0", "3", "abc", "-1", "1.5", "99999999999999999999", ""]) {
    const reply = await client.get(`/sitemap.xml?parte=${part}`);
    expect(reply.status, part).toBe(404);
    expect(reply.text).toBe("Esta parte del mapa del sitio no existe.");
  }
});
