// How many photos a process decodes at once, and how many uploads a member makes in a minute
// (docs/decisions/028-image-decoding-bound.md): past the line of a process a 503, past a member's
// minute a 429, each with a Spanish message and Retry-After, and nothing stored for them.
import { createHash } from "node:crypto";
import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BrowserClient, type Reply } from "../helpers/browser-client";
import { createMember } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let second: TestServer;

// Four admins, one upload each: the line is what refuses them, not their minute.
const ADMINS = [1, 2, 3, 4].map((n) => `admin-${n}@example.com`);

beforeAll(async () => {
  const env = {
    ADMIN_EMAILS: ADMINS.join(","),
    UPLOAD_DECODES: "1",
    UPLOAD_QUEUE: "1",
    UPLOADS_PER_MINUTE: "2",
  };
  server = await startTestServer(env);
  // A second process of the same site: its own line, the same database.
  second = await startTestServer(env, { database: server.database });
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

/** 7,000 × 7,000 pixels of one colour: about 150 KB of PNG, 49 million pixels to decode. */
function largePhoto(red: number): Promise<Buffer> {
  return sharp({
    create: { width: 7000, height: 7000, channels: 3, background: { r: red, g: 90, b: 160 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

function smallPhoto(red: number): Promise<Buffer> {
  return sharp({
    create: { width: 300, height: 200, channels: 3, background: { r: red, g: 1, b: 2 } },
  })
    .png()
    .toBuffer();
}

function upload(client: BrowserClient, files: Buffer[], query = "") {
  const form = new FormData();
  files.forEach((data, i) =>
    form.append("imagen", new Blob([new Uint8Array(data)], { type: "image/png" }), `${i}.png`),
  );
  return client.request("POST", `/subidas${query}`, { body: form });
}

/** Whether any width of `data` is stored in `target`'s uploads folder (files are named by content). */
function isStored(target: TestServer, data: Buffer): boolean {
  const hash = createHash("sha256").update(data).digest("hex").slice(0, 32);
  return fs.readdirSync(target.config.uploadsDir).some((name) => name.startsWith(hash));
}

const errorOf = (reply: Reply) => (JSON.parse(reply.text) as { error: string }).error;

test("with one decode at a time and one upload waiting, the uploads past them are refused with a 503 and a Spanish message, and nothing of theirs is stored", async () => {
  const admins = await Promise.all(ADMINS.map((email) => createMember(server, email)));
  const photos = await Promise.all([1, 2, 3, 4].map(largePhoto));
  // Eight large photos a request: the first admitted decodes for seconds while the others arrive.
  const replies = await Promise.all(
    photos.map((photo, i) =>
      upload(
        admins[i]!.client,
        Array.from({ length: 8 }, () => photo),
      ),
    ),
  );
  expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 503, 503]);
  replies.forEach((reply, i) => {
    if (reply.status === 200) {
      expect(isStored(server, photos[i]!)).toBe(true);
      return;
    }
    expect(errorOf(reply)).toBe(
      "El servidor está procesando muchas imágenes a la vez. Vuelve a intentarlo en unos segundos.",
    );
    expect(reply.headers.get("retry-after")).toBe("5");
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(isStored(server, photos[i]!)).toBe(false);
  });
  // The line is empty again: every place was given back.
  const after = await smallPhoto(9);
  const refusedAdmin = admins[replies.findIndex((r) => r.status === 503)]!;
  expect((await upload(refusedAdmin.client, [after])).status).toBe(200);
  expect(isStored(server, after)).toBe(true);
});

test("a member's uploads per minute are counted in the database: past the limit, across two processes, a 429 with a Spanish message, and nothing stored", async () => {
  const member = await createMember(server);
  const elsewhere = new BrowserClient(second.url);
  for (const [name, value] of member.client.cookies) elsewhere.cookies.set(name, value);
  const photos = await Promise.all([11, 12, 13, 14].map(smallPhoto));

  expect((await upload(member.client, [photos[0]!], "?para=perfil")).status).toBe(200);
  expect((await upload(elsewhere, [photos[1]!], "?para=perfil")).status).toBe(200);
  for (const [client, target, photo] of [
    [member.client, server, photos[2]!],
    [elsewhere, second, photos[3]!],
  ] as const) {
    const refused = await upload(client, [photo], "?para=perfil");
    expect(refused.status).toBe(429);
    expect(errorOf(refused)).toBe(
      "Subiste muchas imágenes en poco tiempo (como máximo 2 por minuto). Espera un momento y vuelve a intentarlo.",
    );
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(isStored(target, photo)).toBe(false);
  }
  // Another member has a minute of their own.
  const other = await createMember(second);
  expect((await upload(other.client, [await smallPhoto(15)], "?para=perfil")).status).toBe(200);
});
