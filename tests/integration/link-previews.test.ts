// Link previews (issue 36, docs/decisions/046-link-previews.md): every public page names an
// absolute picture from PUBLIC_URL of 1200 × 630 with its size; the picture is served to any
// fetcher (WhatsApp's, Facebook's, a browser) without cookies or redirects, as a JPEG of at most
// 300 KB, drawn from the item (an uploaded photo behind it; an outside link never fetched);
// unknown, malformed and hostile addresses are 404s.
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, type User } from "~/db/schema.server";
import { createNote } from "~/publications/note.server";
import { createProject } from "~/publications/project.server";
import { createResource } from "~/publications/resource.server";
import { siteStorage } from "~/uploads/site-storage.server";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createTestEvent } from "../helpers/events";
import { noteInput, projectInput, resourceInput } from "../helpers/publications";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: User;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = (await createAdmin(server)).user;
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const FETCHERS = [
  "WhatsApp/2.23.20.0 A",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "TelegramBot (like TwitterBot)",
  "Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36",
];

/** A GET as a fetcher makes it: no cookie, no redirect followed. */
async function fetchAs(userAgent: string, target: string) {
  return fetch(new URL(target, server.url), {
    headers: { "User-Agent": userAgent },
    redirect: "manual",
  });
}

async function expectCard(target: string) {
  for (const agent of FETCHERS) {
    const reply = await fetchAs(agent, target);
    expect(reply.status, `${agent} ${target}`).toBe(200);
    expect(reply.headers.get("content-type")).toBe("image/jpeg");
    expect(reply.headers.get("set-cookie")).toBeNull();
    const bytes = Buffer.from(await reply.arrayBuffer());
    expect(bytes.length).toBeLessThanOrEqual(300 * 1024);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
  }
}

/** The page's preview tags. */
function previewOf(html: string) {
  const content = (property: string) =>
    new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1] ?? null;
  return {
    image: content("og:image"),
    width: content("og:image:width"),
    height: content("og:image:height"),
    images: html.match(/<meta property="og:image"/g)?.length ?? 0,
  };
}

test("every public page names one absolute 1200 × 630 picture from PUBLIC_URL, and each is served to any fetcher", async () => {
  const event = await createTestEvent(server.db, admin, {
    nombreEvento: "Taller de visión",
    imagenEnlace: "https://example.com/foto.png",
  });
  const note = await createNote(server.db, admin, noteInput({ titulo: "Crónica del taller" }));
  const resource = await createResource(server.db, admin, resourceInput({ titulo: "Guía" }));
  const project = await createProject(server.db, admin, projectInput({ titulo: "Ratón" }));
  const origin = server.config.publicUrl.origin;
  const pages: [string, string][] = [
    ["/", "/og/sitio"],
    ["/inicio", "/og/sitio"],
    ["/events", "/og/sitio"],
    ["/clase1", "/og/sitio"],
    ["/eventos", "/og/sitio"],
    ["/notas", "/og/sitio"],
    ["/recursos", "/og/sitio"],
    ["/proyectos", "/og/sitio"],
    ["/login", "/og/sitio"],
    [`/detalles/${event.id}`, `/og/evento/${event.id}`],
    [`/notas/${note.id}`, `/og/nota/${note.id}`],
    [`/recursos/${resource.id}`, `/og/recurso/${resource.id}`],
    [`/proyectos/${project.id}`, `/og/proyecto/${project.id}`],
  ];
  for (const [page, card] of pages) {
    const reply = await fetchAs(FETCHERS[0]!, page);
    expect(reply.status, page).toBe(200);
    const preview = previewOf(await reply.text());
    expect(preview, page).toEqual({
      image: `${origin}${card}`,
      width: "1200",
      height: "630",
      images: 1,
    });
  }
  for (const card of new Set(pages.map(([, card]) => card))) await expectCard(card);
});

test("an uploaded photo is drawn behind the card, still at most 300 KB; an outside picture is never fetched", async () => {
  // A noisy photo (the hardest case for JPEG), stored as uploads are.
  const hash = randomBytes(16).toString("hex");
  const noise = await sharp(randomBytes(1280 * 720 * 3), {
    raw: { width: 1280, height: 720, channels: 3 },
  })
    .webp({ quality: 90 })
    .toBuffer();
  await siteStorage(server.config).write(`${hash}-1280.webp`, noise);
  const event = await createTestEvent(server.db, admin, {
    nombreEvento: "Feria de robótica con foto",
    imagenEnlace: `/imagenes/${hash}-1280.webp`,
  });
  await expectCard(`/og/evento/${event.id}`);
  const withPhoto = Buffer.from(await (await fetchAs("x", `/og/evento/${event.id}`)).arrayBuffer());

  // The same event with an outside link: the plain card (a different picture), drawn at once.
  await server.db
    .update(events)
    .set({ imagenEnlace: "http://169.254.169.254/latest/meta-data" })
    .where(eq(events.id, event.id));
  await server.settled();
  const plain = Buffer.from(await (await fetchAs("x", `/og/evento/${event.id}`)).arrayBuffer());
  expect(plain.equals(withPhoto)).toBe(false);
  expect((await sharp(plain).metadata()).width).toBe(1200);
});

test("unknown, malformed and hostile card addresses are 404s, never a 500 or a redirect", async () => {
  const event = await createTestEvent(server.db, admin);
  for (const target of [
    `/og/evento/${randomUUID()}`,
    "/og/evento/no-es-un-id",
    `/og/nota/${event.id}`,
    `/og/cosa/${event.id}`,
    "/og/evento",
    "/og/sitio/extra",
    "/og/evento/..%2F..%2Fetc%2Fpasswd",
    `/og/evento/${"a".repeat(3000)}`,
    "/og/%00",
  ]) {
    const reply = await fetchAs(FETCHERS[0]!, target);
    expect(reply.status, target).toBe(404);
    expect(reply.headers.get("set-cookie"), target).toBeNull();
  }
});
