// Photo uploads through the real server (POST /subidas, files served under /imagenes): real
// files made here with sharp, the forms that save their paths, who may upload, what is refused,
// and removal once nothing uses a file.
import fs from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eventImages, events, resources, users } from "~/db/schema.server";
import { sweepUploads } from "~/uploads/upload.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import { BrowserClient } from "../helpers/browser-client";
import {
  ADMIN_EMAIL,
  createAdmin,
  createMember,
  createTestEvent,
  eventForm,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL, UPLOAD_MAX_MB: "1" });
  admin = await createAdmin(server);
  member = await createMember(server);
});
afterAll(async () => {
  await server?.close();
});

/** A JPEG of `width` × `height` with noise, carrying GPS EXIF and an orientation. */
async function jpegWithGps(width = 1600, height = 900, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 31 + seed * 97) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .withExif({
      IFD0: { Make: "Camara de prueba" },
      IFD3: {
        GPSLatitudeRef: "S",
        GPSLatitude: "16/1 30/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "68/1 9/1 0/1",
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Whether EXIF data points at a GPS section (tag 0x8825, little-endian as sharp writes it). */
const hasGps = (exif: Buffer | undefined) =>
  Boolean(exif?.includes(Buffer.from([0x25, 0x88])) && exif.includes(Buffer.from("S\0", "latin1")));

async function png(width = 400, height = 300, color = { r: 20, g: 120, b: 220 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** A valid-looking PNG whose header declares 50,000 × 50,000 pixels, in a few hundred bytes. */
function pngBomb(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(50_001 * 2))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function upload(
  client: BrowserClient | null,
  files: { name: string; data: Buffer; type?: string }[],
  query = "",
) {
  const form = new FormData();
  for (const file of files)
    form.append(
      "imagen",
      new Blob([new Uint8Array(file.data)], { type: file.type ?? "image/jpeg" }),
      file.name,
    );
  return (client ?? new BrowserClient(server.url)).request("POST", `/subidas${query}`, {
    body: form,
  });
}

const stored = () => fs.readdirSync(server.config.uploadsDir).filter((n) => !n.startsWith("."));

test("an admin's JPEG is stored upright, in three widths of WebP, with no GPS or other metadata", async () => {
  const original = await jpegWithGps();
  const before = await sharp(original).metadata();
  expect(before.orientation).toBe(6);
  expect(hasGps(before.exif)).toBe(true);
  const reply = await upload(admin.client, [{ name: "foto.jpg", data: original }]);
  expect(reply.status).toBe(200);
  const body = JSON.parse(reply.text) as {
    images: { path: string; width: number; height: number; srcSet: string }[];
  };
  const [image] = body.images;
  // Orientation 6: the 1600 × 900 picture stands upright as 900 wide, 1600 high.
  expect(image).toMatchObject({ width: 900, height: 1600 });
  expect(image!.path).toMatch(/^\/imagenes\/[0-9a-f]{32}-900\.webp$/);
  expect(image!.srcSet.split(", ").map((s) => s.split(" ")[1])).toEqual(["320w", "640w", "900w"]);

  const served = await fetch(new URL(image!.path, server.url));
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("image/webp");
  expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  const bytes = Buffer.from(await served.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("webp");
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  expect(bytes.includes(Buffer.from("Camara de prueba"))).toBe(false);
  for (const width of [320, 640]) {
    const small = path.join(
      server.config.uploadsDir,
      image!.path.replace(/-900\.webp$/, `-${width}.webp`).slice("/imagenes/".length),
    );
    expect((await sharp(small).metadata()).width).toBe(width);
  }
});

test("a PNG is read by its bytes, and a small one is not enlarged", async () => {
  const reply = await upload(admin.client, [{ name: "logo.jpg", data: await png(200, 100) }]);
  expect(reply.status).toBe(200);
  const { images } = JSON.parse(reply.text) as { images: { path: string; srcSet: string }[] };
  expect(images[0]!.path).toMatch(/-200\.webp$/);
  expect(images[0]!.srcSet).toMatch(/^\/imagenes\/[0-9a-f]{32}-200\.webp 200w$/);
});

test("a gallery of as many files at once as the limit allows, stored in order", async () => {
  // Ten: the most one request may carry (busboy counted the closing boundary as an 11th part).
  const files = await Promise.all(
    Array.from({ length: 10 }, async (_, n) => ({
      name: `galeria-${n}.png`,
      data: await png(700, 500, { r: n * 20, g: 10, b: 10 }),
    })),
  );
  const reply = await upload(admin.client, files);
  expect(reply.status).toBe(200);
  const { images } = JSON.parse(reply.text) as { images: { path: string }[] };
  expect(images).toHaveLength(10);
  expect(new Set(images.map((i) => i.path)).size).toBe(10);

  const event = await createTestEvent(server.db, admin.user);
  const added = await admin.client.post(
    `/admin?galeria=${event.id}`,
    new URLSearchParams([
      ["intent", "galleryAdd"],
      ["eventId", event.id],
      ...images.map((i): [string, string] => ["url", i.path]),
      ["url", "https://example.com/enlazada.png"],
    ]),
  );
  expect(added.status).toBe(302);
  const gallery = await server.db
    .select({ url: eventImages.url })
    .from(eventImages)
    .where(eq(eventImages.eventId, event.id))
    .orderBy(eventImages.position);
  expect(gallery.map((g) => g.url)).toEqual([
    ...images.map((i) => i.path),
    "https://example.com/enlazada.png",
  ]);

  const page = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  // 700 pixels wide: stored at 320, 640 and 700, which the gallery offers the browser.
  const base = images[0]!.path.replace(/-700\.webp$/, "");
  expect(page.text).toContain(
    `srcSet="${base}-320.webp 320w, ${base}-640.webp 640w, ${base}-700.webp 700w"`,
  );
});

test("refused: a text file named .jpg, a declared 50,000 × 50,000 image, a file past the size limit; nothing is stored", async () => {
  const before = stored();
  const text = await upload(admin.client, [
    { name: "foto.jpg", data: Buffer.from("esto no es una imagen\n".repeat(20)) },
  ]);
  expect(text.status).toBe(415);
  expect(JSON.parse(text.text)).toEqual({
    error: "«foto.jpg» no es una imagen JPEG, PNG, WebP, AVIF o GIF.",
  });

  const bomb = pngBomb();
  expect(bomb.length).toBeLessThan(2000);
  const huge = await upload(admin.client, [{ name: "bomba.png", data: bomb, type: "image/png" }]);
  expect(huge.status).toBe(413);
  expect(JSON.parse(huge.text).error).toBe(
    "«bomba.png» tiene demasiados píxeles (50.000 × 50.000); el máximo es 50 millones.",
  );

  const big = Buffer.alloc(1024 * 1024 + 10, 7);
  const heavy = await upload(admin.client, [{ name: "pesada.jpg", data: big }]);
  expect(heavy.status).toBe(413);
  expect(JSON.parse(heavy.text).error).toBe("«pesada.jpg» pesa más de 1 MB, el máximo por imagen.");

  // One bad file among good ones refuses them all.
  const mixed = await upload(admin.client, [
    { name: "buena.png", data: await png(300, 300, { r: 1, g: 2, b: 3 }) },
    { name: "mala.jpg", data: Buffer.from("nada") },
  ]);
  expect(mixed.status).toBe(415);
  expect(stored()).toEqual(before);
});

test("malformed bodies are a 4xx with a Spanish message", async () => {
  const cases: [BodyInit, Record<string, string>][] = [
    ["imagen=hola", { "Content-Type": "application/x-www-form-urlencoded" }],
    ["{}", { "Content-Type": "application/json" }],
    [
      '--x\r\nContent-Disposition: form-data; name="imagen"; filename="a.png"\r\n\r\nabc',
      {
        "Content-Type": "multipart/form-data; boundary=x",
      },
    ],
    ["", { "Content-Type": "multipart/form-data; boundary=x" }],
    ["--x--\r\n", { "Content-Type": "multipart/form-data" }],
    [
      '--x\r\nContent-Disposition: form-data; name="otro"\r\n\r\nvalor\r\n--x--\r\n',
      { "Content-Type": "multipart/form-data; boundary=x" },
    ],
  ];
  for (const [body, headers] of cases) {
    const reply = await admin.client.request("POST", "/subidas", { body, headers });
    expect(reply.status, String(body)).toBeGreaterThanOrEqual(400);
    expect(reply.status, String(body)).toBeLessThan(500);
    expect(JSON.parse(reply.text).error, String(body)).toMatch(/[a-záéíóú]/);
  }
  const tooMany = await upload(
    admin.client,
    Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, data: Buffer.from([i]) })),
  );
  expect(tooMany.status).toBe(413);
  expect(JSON.parse(tooMany.text).error).toBe("Como máximo 10 imágenes a la vez.");
  const unknown = await admin.client.request("POST", "/subidas?para=otra", {
    body: new FormData(),
  });
  expect(unknown.status).toBe(400);
});

test("visitors may not upload; members only their own photo", async () => {
  const file = [{ name: "yo.png", data: await png(100, 100, { r: 9, g: 9, b: 9 }) }];
  const before = stored();
  const visitor = await upload(null, file);
  expect(visitor.status).toBe(403);
  expect(JSON.parse(visitor.text).error).toBe("Inicia sesión para subir imágenes.");
  expect((await upload(null, file, "?para=perfil")).status).toBe(403);
  const memberAdmin = await upload(member.client, file);
  expect(memberAdmin.status).toBe(403);
  expect(JSON.parse(memberAdmin.text).error).toBe("Acceso denegado. No eres un administrador.");
  expect(stored()).toEqual(before);

  const own = await upload(member.client, file, "?para=perfil");
  expect(own.status).toBe(200);
  const { images } = JSON.parse(own.text) as { images: { path: string }[] };
  const [row] = await server.db.select().from(users).where(eq(users.id, member.user.id));
  expect(row!.ownPhotoUrl).toBe(images[0]!.path);
  const profile = await member.client.get("/profile");
  expect(profile.text).toContain(images[0]!.path);

  // Removing it goes back to the provider's photo, and the file nobody uses goes.
  const removed = await member.client.post("/profile", { intent: "photoRemove" });
  expect(removed.status).toBe(302);
  const [after] = await server.db.select().from(users).where(eq(users.id, member.user.id));
  expect(after!.ownPhotoUrl).toBeNull();
  expect(stored()).toEqual(before);
  // A visitor is sent to sign in; nothing changes. (The action only ever acts for the signed-in member.)
  const visitorRemove = await new BrowserClient(server.url).post("/profile", {
    intent: "photoRemove",
  });
  expect(visitorRemove.status).toBe(302);
  expect(visitorRemove.location).toMatch(/\/login/);

  const two = await upload(
    member.client,
    [...file, { name: "otra.png", data: await png(90, 90) }],
    "?para=perfil",
  );
  expect(two.status).toBe(400);
  expect(JSON.parse(two.text).error).toBe("Elige una sola foto.");
  expect(stored()).toEqual(before);
});

test("deleting an event or a gallery image removes the files nobody else uses", async () => {
  const [first, second] = await Promise.all([
    upload(admin.client, [{ name: "a.png", data: await png(500, 500, { r: 200, g: 0, b: 0 }) }]),
    upload(admin.client, [{ name: "b.png", data: await png(500, 500, { r: 0, g: 200, b: 0 }) }]),
  ]);
  const cover = (JSON.parse(first.text) as { images: { path: string }[] }).images[0]!.path;
  const photo = (JSON.parse(second.text) as { images: { path: string }[] }).images[0]!.path;
  const hash = (p: string) => p.slice("/imagenes/".length, "/imagenes/".length + 32);
  const filesOf = (p: string) => stored().filter((n) => n.startsWith(hash(p)));
  // 500 pixels wide: 320 and 500.
  expect(filesOf(cover)).toHaveLength(2);

  const published = await admin.client.post(
    "/admin",
    eventForm("publish", { imagenEnlace: cover }),
  );
  expect(published.status).toBe(302);
  const [event] = await server.db.select().from(events).where(eq(events.imagenEnlace, cover));
  // The same cover on a second event: deleting one keeps the file for the other.
  const other = await createTestEvent(server.db, admin.user, { imagenEnlace: cover });
  await admin.client.post(`/admin?galeria=${event!.id}`, {
    intent: "galleryAdd",
    eventId: event!.id,
    url: photo,
  });
  const [image] = await server.db
    .select()
    .from(eventImages)
    .where(eq(eventImages.eventId, event!.id));

  const removed = await admin.client.post(`/admin?galeria=${event!.id}`, {
    intent: "galleryRemove",
    eventId: event!.id,
    imageId: image!.id,
  });
  expect(removed.status).toBe(302);
  expect(filesOf(photo)).toEqual([]);

  expect((await admin.client.post("/admin", { intent: "delete", eventId: event!.id })).status).toBe(
    302,
  );
  expect(filesOf(cover)).toHaveLength(2);
  expect((await admin.client.post("/admin", { intent: "delete", eventId: other.id })).status).toBe(
    302,
  );
  expect(filesOf(cover)).toEqual([]);
});

test("deleting a resource removes its uploaded images; editing one drops the image it no longer has", async () => {
  const reply = await upload(admin.client, [
    { name: "r1.png", data: await png(400, 300, { r: 1, g: 100, b: 1 }) },
    { name: "r2.png", data: await png(400, 300, { r: 2, g: 100, b: 2 }) },
  ]);
  const [kept, dropped] = (JSON.parse(reply.text) as { images: { path: string }[] }).images;
  const hash = (p: string) => p.slice("/imagenes/".length, "/imagenes/".length + 32);
  const filesOf = (p: string) => stored().filter((n) => n.startsWith(hash(p)));
  const fields = (images: string[], id?: string) =>
    new URLSearchParams([
      ["intent", "saveResource"],
      ...(id ? [["id", id] as [string, string]] : []),
      ["titulo", "Guía con fotos"],
      ["texto", "Texto del recurso."],
      ...images.map((i): [string, string] => ["enlacesImagenes", i]),
    ]);
  expect(
    (await admin.client.post("/projectsandnotes", fields([kept!.path, dropped!.path]))).status,
  ).toBe(302);
  const [resource] = await server.db.select().from(resources);
  expect(resource!.enlacesImagenes).toEqual([kept!.path, dropped!.path]);

  const edited = await admin.client.post("/projectsandnotes", fields([kept!.path], resource!.id));
  expect(edited.status).toBe(302);
  expect(filesOf(dropped!.path)).toEqual([]);
  expect(filesOf(kept!.path)).toHaveLength(2);

  const deleted = await admin.client.post("/projectsandnotes", {
    intent: "deleteResource",
    id: resource!.id,
  });
  expect(deleted.status).toBe(302);
  expect(filesOf(kept!.path)).toEqual([]);
});

test("the sweep removes uploads no form saved, once a day has passed", async () => {
  const reply = await upload(admin.client, [
    { name: "sin-usar.png", data: await png(64, 64, { r: 5, g: 6, b: 7 }) },
  ]);
  const { images } = JSON.parse(reply.text) as { images: { path: string }[] };
  const name = images[0]!.path.slice("/imagenes/".length);
  const storage = uploadStorage(server.config.uploadsDir);
  expect(await sweepUploads(server.db, storage)).toBe(0);
  expect(await storage.has(name)).toBe(true);
  const tomorrow = new Date(Date.now() + 25 * 60 * 60 * 1000);
  expect(await sweepUploads(server.db, storage, tomorrow)).toBeGreaterThan(0);
  expect(await storage.has(name)).toBe(false);
});
