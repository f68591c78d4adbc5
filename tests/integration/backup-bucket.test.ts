// Backups and the bucket (docs/decisions/033-backups-and-moves-with-the-bucket.md): a backup
// carries the photos wherever they are kept and restores into a site whose photos live in the
// other kind of store; `npm run backup`/`restore` write to and read from s3://…; a refused restore
// leaves no object behind; `npm run move-photos` copies the folder into the bucket and back,
// resumable, reporting what it cannot copy and going on. Against s3rver on loopback.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { restoreBackup, writeBackup, BackupError } from "#server/backup/backup.server";
import type { Database } from "~/db/client.server";
import { loadConfig } from "~/kernel/config.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { users } from "~/db/schema.server";
import { movePhotos } from "~/uploads/move-photos.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import { objectStorage } from "~/uploads/object-storage.server";
import type { UploadStorage } from "~/uploads/storage.server";
import { storeImages } from "~/uploads/upload.server";
import { copyEmbeddedTemplate, createTestDatabase } from "../helpers/database";
import { TEST_ENV } from "../helpers/server";
import { startS3, TEST_BUCKET, type TestS3 } from "../helpers/s3";

const BACKUPS = "ayllu-copias";
let s3: TestS3;
const opened: Database[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3([
    TEST_BUCKET,
    BACKUPS,
    "ayllu-otro",
    "ayllu-mudanza",
    "ayllu-fuente",
    "ayllu-destino",
  ]);
});
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});
afterAll(async () => {
  await s3?.close();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copia-bucket-"));
  dirs.push(dir);
  return dir;
}

async function database(): Promise<Database> {
  const db = await createTestDatabase();
  opened.push(db);
  return db;
}

/** The store of one of the test server's buckets. */
function bucketStore(bucket: string): UploadStorage {
  const settings = loadConfig({ ...TEST_ENV, ...s3.env(bucket) }).objectStore!;
  return objectStorage(settings, tempDir());
}

const ADMIN = { isAdmin: true };
const LIMITS = { maxBytes: 5_000_000, maxPixels: 50_000_000 };

/** Stores `count` photos in `storage` and names one of them as a member's photo in `db`. */
async function populate(db: Database, storage: UploadStorage, count = 2): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const data = await sharp({
      create: { width: 700, height: 300, channels: 3, background: { r: 40 * i, g: 9, b: 9 } },
    })
      .png()
      .toBuffer();
    const [image] = await storeImages(
      storage,
      ADMIN,
      "admin",
      [{ data, filename: `${i}.png` }],
      LIMITS,
    );
    paths.push(image!.path);
  }
  await db.db.insert(users).values({
    issuer: "https://issuer.example",
    subject: `copia-${Math.random()}`,
    email: `copia-${Math.random()}@example.com`,
    emailVerified: true,
    displayName: "Con foto",
    ownPhotoUrl: paths[0]!,
  });
  return paths;
}

const namesIn = async (storage: UploadStorage) => (await storage.list()).map((f) => f.name).sort();

async function objectsUnder(bucket: string, prefix: string): Promise<string[]> {
  const listing = await (
    await fetch(`${s3.endpoint}/${bucket}?list-type=2&prefix=${prefix}`)
  ).text();
  return [...listing.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
}

test("a backup of a site on its folder restores into a site on a bucket, and back, photos and rows alike", async () => {
  const folder = uploadStorage(tempDir());
  const source = await database();
  await populate(source, folder);
  const photos = await namesIn(folder);
  expect(photos.length).toBeGreaterThanOrEqual(4);

  const file = path.join(tempDir(), "copia.gz");
  const header = await writeBackup(source.db, file, source.kind, folder);
  expect(header.files).toBe(photos.length);

  const bucket = bucketStore("ayllu-otro");
  const target = await database();
  await restoreBackup(target.db, file, { uploads: bucket });
  expect(await namesIn(bucket)).toEqual(photos);
  for (const name of photos)
    expect((await bucket.read(name)).equals(await folder.read(name))).toBe(true);
  const [restored] = await target.db.select().from(users);
  expect(restored!.ownPhotoUrl).toMatch(/^\/imagenes\//);

  // And back: a backup of the bucket site carries its photos, into a folder.
  const again = path.join(tempDir(), "otra.gz");
  expect((await writeBackup(target.db, again, target.kind, bucket)).files).toBe(photos.length);
  const folderAgain = uploadStorage(tempDir());
  const third = await database();
  await restoreBackup(third.db, again, { uploads: folderAgain });
  expect(await namesIn(folderAgain)).toEqual(photos);
});

test("a backup stops with an error when the bucket fails while photos are read, rather than leave them out", async () => {
  const away = await startS3(["ayllu-lejos"]);
  const settings = loadConfig({ ...TEST_ENV, ...away.env("ayllu-lejos") }).objectStore!;
  const bucket = objectStorage(settings, tempDir());
  const source = await database();
  await populate(source, bucket, 1);
  const file = path.join(tempDir(), "sin-fotos.gz");
  // Listed, then gone: the bucket stops answering between the listing and the reads.
  const failing: UploadStorage = {
    ...bucket,
    list: async () => {
      const listed = await bucket.list();
      await away.stop();
      return listed;
    },
  };
  try {
    await expect(writeBackup(source.db, file, source.kind, failing)).rejects.toThrow();
    expect(fs.existsSync(file)).toBe(false);
  } finally {
    await away.close();
  }
});

test("a restore into a bucket that is refused halfway (a damaged file after its photos) leaves no object behind", async () => {
  const folder = uploadStorage(tempDir());
  const source = await database();
  await populate(source, folder);
  const file = path.join(tempDir(), "copia.gz");
  await writeBackup(source.db, file, source.kind, folder);
  // The rows and the photos whole, then a line that is not JSON: the file ends damaged.
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString();
  const damaged = path.join(tempDir(), "dañada.gz");
  fs.writeFileSync(damaged, zlib.gzipSync(`${text}{"file":"uploads/roto`));

  const target = await database();
  const store = bucketStore(TEST_BUCKET);
  const before = await objectsUnder(TEST_BUCKET, "");
  await expect(restoreBackup(target.db, damaged, { uploads: store })).rejects.toBeInstanceOf(
    BackupError,
  );
  expect(await objectsUnder(TEST_BUCKET, "")).toEqual(before);
  expect(await objectsUnder(TEST_BUCKET, "restauracion/")).toEqual([]);
  expect(await target.db.select().from(users)).toEqual([]);
});

test("move-photos copies the folder into the bucket, skips what is there on a rerun, reports a cut file and a name that lies, and copies back", async () => {
  const folder = uploadStorage(tempDir());
  const source = await database();
  await populate(source, folder, 3);
  const good = await namesIn(folder);
  // A file cut short, and a whole WebP under a name that says another width.
  const whole = await folder.read(good[0]!);
  const cutName = `${"a".repeat(32)}-320.webp`;
  fs.writeFileSync(path.join(folder.dir, cutName), whole.subarray(0, whole.length - 50));
  const liarName = `${"b".repeat(32)}-1280.webp`;
  fs.writeFileSync(
    path.join(folder.dir, liarName),
    await sharp({ create: { width: 320, height: 100, channels: 3, background: "#808080" } })
      .webp()
      .toBuffer(),
  );

  const bucket = bucketStore("ayllu-mudanza");
  const seen: number[] = [];
  const first = await movePhotos(folder, bucket, { onProgress: (done) => seen.push(done) });
  expect(first.total).toBe(good.length + 2);
  expect(first.copied).toBe(good.length);
  expect(first.problems).toEqual([
    { name: cutName, problem: expect.stringContaining("está incompleta") },
    { name: liarName, problem: expect.stringContaining("su nombre no corresponde a su contenido") },
  ]);
  expect(seen.at(-1)).toBe(good.length + 2);
  expect(await namesIn(bucket)).toEqual(good);

  // Resumable and harmless to repeat: nothing copied twice.
  const second = await movePhotos(folder, bucket);
  expect(second.copied).toBe(0);
  expect(second.present).toBe(good.length);

  // And back, into an empty folder.
  const back = uploadStorage(tempDir());
  const returned = await movePhotos(bucket, back);
  expect(returned.copied).toBe(good.length);
  expect(returned.problems).toEqual([]);
  for (const name of good)
    expect((await back.read(name)).equals(await folder.read(name))).toBe(true);
});

/** `npm run <script> -- <args>` as a person runs it, on an embedded database in `dataDir`. */
function run(script: string, args: string[], env: Record<string, string>) {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete full.DATABASE_URL;
  delete full.TEST_DATABASE_URL;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx"),
      [`scripts/${script}.ts`, ...args],
      { cwd: PROJECT_ROOT, env: full, timeout: 120_000 },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("npm run backup -- s3://… and npm run restore -- s3://…: the embedded site on its folder, restored into a site on the bucket", async () => {
  const sourceDir = copyEmbeddedTemplate(tempDir());
  const uploadsDir = path.join(sourceDir, "uploads");
  // A photo in the source's folder, named by a row.
  {
    const { openEmbedded } = await import("~/db/client.server");
    const db = await openEmbedded(sourceDir);
    try {
      await populate(db, uploadStorage(uploadsDir), 1);
    } finally {
      await db.close();
    }
  }
  const photos = await namesIn(uploadStorage(uploadsDir));
  // The source site keeps its photos in its folder; the S3 settings (another bucket) are only for
  // the backup's address... which needs S3_BUCKET, so the source's photos are moved first.
  const env = { ...s3.env("ayllu-fuente"), UPLOADS_DIR: uploadsDir };
  const moved = await run("move-photos", ["to-bucket"], { ...env, DATA_DIR: sourceDir });
  expect(moved.code).toBe(0);
  expect(moved.stdout).toContain(`${photos.length} copiadas`);
  expect(moved.stderr).toContain(`${photos.length}/${photos.length} fotos`);

  const address = `s3://${BACKUPS}/sitio/copia-1.ayllu.gz`;
  const backup = await run("backup", [address], { ...env, DATA_DIR: sourceDir });
  expect(backup.code).toBe(0);
  expect(backup.stdout).toContain(`Copia de seguridad escrita en ${address}`);
  expect(backup.stdout).toContain(`${photos.length} archivos (imágenes y archivos privados)`);
  expect(await objectsUnder(BACKUPS, "sitio/")).toEqual(["sitio/copia-1.ayllu.gz"]);

  const targetDir = path.join(tempDir(), "destino");
  const restored = await run("restore", [address], {
    ...s3.env("ayllu-destino"),
    DATA_DIR: targetDir,
  });
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  expect((await objectsUnder("ayllu-destino", "imagenes/")).sort()).toEqual(
    photos.map((name) => `imagenes/${name}`),
  );

  const missing = await run("restore", [`s3://${BACKUPS}/sitio/no-existe.gz`], {
    ...s3.env("ayllu-destino"),
    DATA_DIR: path.join(tempDir(), "otro"),
  });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("no existe");
  expect(missing.stderr).not.toMatch(/^\s+at /m);

  const malformed = await run("backup", ["s3://Mal_Nombre/../x"], { ...env, DATA_DIR: sourceDir });
  expect(malformed.code).toBe(1);
  expect(malformed.stderr).toContain("no es una dirección s3://BUCKET/ARCHIVO válida");

  const noStore = await run("backup", [address], { DATA_DIR: sourceDir });
  expect(noStore.code).toBe(1);
  expect(noStore.stderr).toContain("configura el almacén de objetos");
}, 360_000); // six commands through tsx, each compiling the server code: slow on a loaded CI machine
