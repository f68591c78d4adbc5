// Photos in an S3-compatible bucket (S3_*, docs/decisions/032-object-storage.md), against a real
// S3 server on loopback (s3rver, standing in for R2 and Garage): the configuration and its
// start-up check, uploads stored under their content name and served through the site as from the
// folder, the optional public URL, the sweep, and a store that goes away in the middle of a write.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { copyEmbeddedTemplate } from "../helpers/database";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ConfigError, loadConfig } from "~/kernel/config.server";
import { checkObjectStore } from "~/uploads/object-storage.server";
import { privateObjectStorage } from "~/uploads/private-storage.server";
import { siteStorage } from "~/uploads/site-storage.server";
import { grantRole } from "~/members/roles.server";
import { sweepUploads } from "~/uploads/upload.server";
import { paymentMethod, users } from "~/db/schema.server";
import { eq } from "drizzle-orm";
import { BrowserClient } from "../helpers/browser-client";
import { ADMIN_EMAIL, createAdmin, createMember } from "../helpers/events";
import { startTestServer, TEST_ENV, type TestServer } from "../helpers/server";
import { startCuttingProxy, startS3, TEST_BUCKET, type TestS3 } from "../helpers/s3";

let s3: TestS3;
let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  s3 = await startS3();
  server = await startTestServer({ ...s3.env(), ADMIN_EMAILS: ADMIN_EMAIL });
  admin = await createAdmin(server);
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

function photo(seed: number, width = 700): Promise<Buffer> {
  return sharp({
    create: { width, height: 400, channels: 3, background: { r: seed, g: 120, b: 200 } },
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

const pathsOf = (text: string) =>
  (JSON.parse(text) as { images: { path: string }[] }).images.map((i) => i.path);

/** The object's bytes straight from the S3 server, or null. */
async function objectBytes(name: string, bucket = TEST_BUCKET): Promise<Buffer | null> {
  const reply = await fetch(`${s3.endpoint}/${bucket}/imagenes/${name}`);
  return reply.ok ? Buffer.from(await reply.arrayBuffer()) : null;
}

const configError = (env: Record<string, string>) => {
  try {
    loadConfig({ ...TEST_ENV, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("aceptada");
};

test("the S3 variables are checked at start, each problem naming its variable", () => {
  expect(configError({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toContain("S3_BUCKET falta");
  const keys = configError({ S3_BUCKET: "fotos" });
  expect(keys).toContain("S3_ACCESS_KEY_ID falta");
  expect(keys).toContain("S3_SECRET_ACCESS_KEY falta");
  expect(configError({ ...s3.env(), S3_BUCKET: "Fotos_Grandes" })).toContain("S3_BUCKET");
  expect(configError({ ...s3.env(), S3_BUCKET: "x".repeat(64) })).toContain("S3_BUCKET");
  expect(configError({ ...s3.env(), S3_ENDPOINT: "javascript:alert(1)" })).toContain("S3_ENDPOINT");
  expect(configError({ ...s3.env(), S3_ENDPOINT: "ftp://almacen" })).toContain("S3_ENDPOINT");
  expect(configError({ ...s3.env(), S3_PUBLIC_URL: "javascript:alert(1)" })).toContain(
    "S3_PUBLIC_URL",
  );
  expect(configError({ ...s3.env(), S3_REGION: "us east" })).toContain("S3_REGION");
  expect(configError({ ...s3.env(), S3_FORCE_PATH_STYLE: "quizá" })).toContain(
    "S3_FORCE_PATH_STYLE",
  );
  expect(configError({ ...s3.env(), S3_ACCESS_KEY_ID: "k".repeat(300) })).toContain(
    "S3_ACCESS_KEY_ID",
  );
  // Private files never where the public URL serves.
  expect(configError({ ...s3.env(), S3_PUBLIC_URL: "https://fotos.example.org" })).toContain(
    "S3_PRIVATE_BUCKET",
  );
  expect(
    configError({
      ...s3.env(),
      S3_PUBLIC_URL: "https://fotos.example.org",
      S3_PRIVATE_BUCKET: TEST_BUCKET,
    }),
  ).toContain("S3_PRIVATE_BUCKET es el mismo bucket");

  const config = loadConfig({ ...TEST_ENV, ...s3.env() });
  expect(config.objectStore).toMatchObject({ bucket: TEST_BUCKET, forcePathStyle: true });
  expect(loadConfig(TEST_ENV).objectStore).toBeNull();
});

test("a wrong bucket or key stops the start with a message naming the variable; a store that does not answer, after the wait", async () => {
  const settings = loadConfig({ ...TEST_ENV, ...s3.env() }).objectStore!;
  await expect(checkObjectStore({ ...settings, bucket: "no-existe" })).rejects.toThrow(
    /S3_BUCKET: el bucket «no-existe» no existe/,
  );
  await expect(checkObjectStore({ ...settings, accessKeyId: "OTRA" })).rejects.toThrow(
    /S3_ACCESS_KEY_ID/,
  );
  await expect(checkObjectStore({ ...settings, privateBucket: "tampoco" })).rejects.toThrow(
    /S3_PRIVATE_BUCKET: el bucket «tampoco» no existe/,
  );
  const closed = await startS3([TEST_BUCKET]);
  await closed.close();
  const started = performance.now();
  await expect(
    checkObjectStore({ ...settings, endpoint: closed.endpoint }, { waitMs: 1500 }),
  ).rejects.toThrow(
    /S3_ENDPOINT: no se pudo escribir y leer en http:\/\/127\.0\.0\.1:\d+ durante 2 s/,
  );
  expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  // Through the server's start: it refuses to start, never a 500 later.
  await expect(
    startTestServer({ ...s3.env(), S3_BUCKET: "no-existe" }, { storeCheckMs: 1000 }),
  ).rejects.toMatchObject({ name: "ConfigError", message: expect.stringContaining("S3_BUCKET") });
  // The check leaves nothing behind in the bucket.
  const listing = await (
    await fetch(`${s3.endpoint}/${TEST_BUCKET}?list-type=2&prefix=comprobacion/`)
  ).text();
  expect(listing).not.toContain("<Key>");
});

test("a store away at start is waited for: the node starts once it answers", async () => {
  const away = await startS3([TEST_BUCKET]);
  await away.stop();
  setTimeout(() => void away.start(), 1500);
  const node = await startTestServer(away.env(), { storeCheckMs: 20_000 });
  try {
    expect((await fetch(new URL("/healthz", node.url))).status).toBe(200);
  } finally {
    await node.close();
    await away.close();
  }
});

test("an upload is stored in the bucket under its content name, not in the folder, and served through the site with the folder's caching and nosniff", async () => {
  const original = await photo(10);
  const reply = await upload(admin.client, [original]);
  expect(reply.status).toBe(200);
  const [stored] = pathsOf(reply.text);
  const name = stored!.slice("/imagenes/".length);
  const inBucket = await objectBytes(name);
  expect(inBucket).not.toBeNull();
  expect((await sharp(inBucket!).metadata()).format).toBe("webp");
  expect(
    fs.existsSync(server.config.uploadsDir) ? fs.readdirSync(server.config.uploadsDir) : [],
  ).toEqual([]);

  const served = await fetch(new URL(stored!, server.url));
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("image/webp");
  expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  expect(Buffer.from(await served.arrayBuffer()).equals(inBucket!)).toBe(true);
  const etag = served.headers.get("etag");
  expect(etag).toBeTruthy();
  const again = await fetch(new URL(stored!, server.url), { headers: { "If-None-Match": etag! } });
  expect(again.status).toBe(304);
  const head = await fetch(new URL(stored!, server.url), { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(head.headers.get("content-length")).toBe(String(inBucket!.length));

  // Writing the same photo again is harmless: the same name, the same bytes.
  const twice = await upload(admin.client, [original]);
  expect(pathsOf(twice.text)).toEqual([stored]);
  expect((await objectBytes(name))!.equals(inBucket!)).toBe(true);

  // A name the bucket lacks, and names that are not photos, are not found.
  expect((await fetch(new URL(`/imagenes/${"0".repeat(32)}-320.webp`, server.url))).status).toBe(
    404,
  );
  expect((await fetch(new URL("/imagenes/..%2Fcomprobacion", server.url))).status).toBe(404);
  expect((await fetch(new URL("/imagenes/x.webp", server.url))).status).toBe(404);
});

test("a member's own photo goes to the bucket too, and the one it replaces is removed from it", async () => {
  const member = await createMember(server);
  const first = pathsOf((await upload(member.client, [await photo(20)], "?para=perfil")).text)[0]!;
  const firstName = first.slice("/imagenes/".length);
  expect(await objectBytes(firstName)).not.toBeNull();
  const second = pathsOf((await upload(member.client, [await photo(21)], "?para=perfil")).text)[0]!;
  const [row] = await server.db.select().from(users).where(eq(users.id, member.user.id));
  expect(row!.ownPhotoUrl).toBe(second);
  expect(await objectBytes(second.slice("/imagenes/".length))).not.toBeNull();
  expect(await objectBytes(firstName)).toBeNull();
});

test("the sweep removes unreferenced photos from the bucket past their grace, and keeps the rest", async () => {
  const storage = siteStorage(server.config);
  const unsaved = pathsOf((await upload(admin.client, [await photo(30)])).text)[0]!;
  const member = await createMember(server);
  const kept = pathsOf((await upload(member.client, [await photo(31)], "?para=perfil")).text)[0]!;
  expect(await sweepUploads(server.db, storage)).toBe(0);
  const tomorrow = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
  expect(await sweepUploads(server.db, storage, tomorrow)).toBeGreaterThan(0);
  expect(await objectBytes(unsaved.slice("/imagenes/".length))).toBeNull();
  expect(await objectBytes(kept.slice("/imagenes/".length))).not.toBeNull();
});

test("a store that goes away in the middle of a write: the Spanish upload error, no partial object, and the same upload works once it is back", async () => {
  const proxy = await startCuttingProxy(s3.port);
  const node = await startTestServer(
    {
      ...s3.env(),
      S3_ENDPOINT: proxy.endpoint,
      ADMIN_EMAILS: ADMIN_EMAIL,
    },
    { database: server.database },
  );
  try {
    const client = new BrowserClient(node.url);
    for (const [name, value] of admin.client.cookies) client.cookies.set(name, value);
    // 1,600 pixels wide: four widths, four writes; the second is cut after 300 bytes.
    const original = await photo(40, 1600);
    const before = proxy.putsForwarded();
    proxy.cutPut({ after: 1, bytes: 300 });
    const reply = await upload(client, [original]);
    expect(reply.status).toBe(503);
    expect((JSON.parse(reply.text) as { error: string }).error).toBe(
      "No se pudo guardar la imagen: el almacenamiento de imágenes no responde. Vuelve a intentarlo en unos minutos.",
    );
    expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(proxy.putsForwarded() - before).toBe(1);
    // Every object in the bucket is whole: each one decodes.
    const storage = siteStorage(server.config);
    for (const { name } of await storage.list()) {
      const data = await objectBytes(name);
      expect((await sharp(data!).metadata()).format).toBe("webp");
    }
    proxy.heal();
    const retried = await upload(client, [original]);
    expect(retried.status).toBe(200);
    for (const path of pathsOf(retried.text))
      expect(await objectBytes(path.slice("/imagenes/".length))).not.toBeNull();
  } finally {
    await node.close();
    await proxy.close();
  }
});

test("with the store stopped, an upload gets the Spanish error and a page still answers", async () => {
  const away = await startS3([TEST_BUCKET]);
  const node = await startTestServer(
    { ...away.env(), ADMIN_EMAILS: ADMIN_EMAIL },
    { database: server.database },
  );
  try {
    await away.stop();
    const client = new BrowserClient(node.url);
    for (const [name, value] of admin.client.cookies) client.cookies.set(name, value);
    const reply = await upload(client, [await photo(50)]);
    expect(reply.status).toBe(503);
    expect(reply.text).toContain("el almacenamiento de imágenes no responde");
    expect((await client.get("/")).status).toBe(200);
  } finally {
    await node.close();
    await away.close();
  }
});

test("with S3_PUBLIC_URL, a photo's address on the site sends the browser to the public bucket, for photos only", async () => {
  const original = await photo(60);
  const stored = pathsOf((await upload(admin.client, [original])).text)[0]!;
  const publicNode = await startTestServer(
    {
      ...s3.env(),
      S3_PUBLIC_URL: `${s3.endpoint}/${TEST_BUCKET}/`,
      S3_PRIVATE_BUCKET: "ayllu-privado",
    },
    { database: server.database },
  );
  try {
    const reply = await fetch(new URL(stored, publicNode.url), { redirect: "manual" });
    await reply.arrayBuffer();
    expect(reply.status).toBe(301);
    expect(reply.headers.get("location")).toBe(`${s3.endpoint}/${TEST_BUCKET}${stored}`);
    expect(reply.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const followed = await fetch(reply.headers.get("location")!);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("content-type")).toBe("image/webp");
    await followed.arrayBuffer();
    // Anything else under /imagenes is still the site's 404.
    const other = await fetch(new URL("/imagenes/otra-cosa", publicNode.url));
    await other.arrayBuffer();
    expect(other.status).toBe(404);
  } finally {
    await publicNode.close();
  }
});

test("`node server.js` with a bucket that does not exist says so, naming S3_BUCKET, and exits 1", async () => {
  const dataDir = copyEmbeddedTemplate(fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-s3-proceso-")));
  try {
    const child = spawn(process.execPath, ["server.js"], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: os.tmpdir(),
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SEED_DEMO: "0",
        ...s3.env("no-existe"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain("S3_BUCKET: el bucket «no-existe» no existe");
    expect(output).not.toContain("    at ");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("with a bucket, the bank's QR (a private file, decision 048) goes under privado/ — in S3_PRIVATE_BUCKET when set — never under imagenes/, and only /pago/qr.png serves it", async () => {
  const treasurer = await createMember(server);
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
  const form = new FormData();
  form.append(
    "imagen",
    new Blob([new Uint8Array(await photo(42, 200))], { type: "image/png" }),
    "qr.png",
  );
  const reply = await treasurer.client.request("POST", "/tesoreria", { body: form });
  expect(reply.status).toBe(302);
  const [method] = await server.db.select().from(paymentMethod);
  const name = method!.qrFile!;
  const inBucket = await fetch(`${s3.endpoint}/${TEST_BUCKET}/privado/${name}`);
  expect(inBucket.status).toBe(200);
  expect(await objectBytes(name)).toBeNull();
  expect((await treasurer.client.request("GET", `/imagenes/${name}`)).status).toBe(404);
  const served = await treasurer.client.request("GET", "/pago/qr.png");
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("image/png");

  // With S3_PRIVATE_BUCKET, the private files go to that bucket instead.
  const settings = loadConfig({
    ...TEST_ENV,
    ...s3.env(),
    S3_PRIVATE_BUCKET: "ayllu-privado",
  }).objectStore!;
  const store = privateObjectStorage(settings);
  await store.write(name, Buffer.from("png"));
  expect((await fetch(`${s3.endpoint}/ayllu-privado/privado/${name}`)).status).toBe(200);
  expect((await store.list()).map((f) => f.name)).toEqual([name]);
  await store.remove(name);
  expect(await store.has(name)).toBe(false);
});
