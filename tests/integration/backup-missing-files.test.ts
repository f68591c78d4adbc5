// A backup never silently omits what the database refers to (decision 062): a receipt, a photo or
// the bank's QR that a row names and the store lacks fails the backup with a Spanish message that
// names it (the command exits 1), unless asked with --permitir-faltantes (BACKUP_ALLOW_MISSING=1
// for the nightly one): then the copy lists it, and so does its restore. Diagnóstico shows the
// same check. On the database the suite runs on, in-process and through `npm run backup`/`restore`.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, expect, test } from "vitest";
import { MissingFilesError, restoreBackup, writeBackup } from "#server/backup/backup.server";
import { backupIntoFolder } from "#server/backup/folder.server";
import { openEmbedded, openPostgres, type Database, type Db } from "~/db/client.server";
import { backupRuns, events, paymentMethod, payments, users, type User } from "~/db/schema.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import { privateFolderStorage } from "~/uploads/private-storage.server";
import { storeImages } from "~/uploads/upload.server";
import {
  copyEmbeddedTemplate,
  createPostgresDatabase,
  createTestDatabase,
  dropDatabase,
  postgresAdminUrl,
  usingPostgres,
} from "../helpers/database";
import { failOnConsoleError } from "../helpers/console";
import { ADMIN_EMAIL, createAdmin, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

failOnConsoleError();

const opened: Database[] = [];
const dirs: string[] = [];
const servers: TestServer[] = [];
const dropped: string[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
  while (opened.length) await opened.pop()!.close();
});
afterAll(async () => {
  for (const name of dropped) await dropDatabase(postgresAdminUrl!, name);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-faltantes-"));
  dirs.push(dir);
  return dir;
}

async function track(database: Promise<Database>): Promise<Database> {
  const db = await database;
  opened.push(db);
  return db;
}

const privateName = (kind: "pdf" | "png" | "jpg") => `${randomBytes(16).toString("hex")}.${kind}`;

/**
 * A site's rows and files: a member whose photo is an upload, the bank's QR, and two payments with
 * their receipts, all in `uploadsDir` and `privateDir`. Returns what the rows name.
 */
async function populate(db: Db, uploadsDir: string, privateDir: string) {
  const [admin] = await db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `admin-${randomUUID()}`,
      email: `jefa-${randomUUID()}@example.com`,
      nombreCompleto: "Jefa",
      isAdmin: true,
    })
    .returning();
  const uploads = uploadStorage(uploadsDir);
  const png = await sharp({
    create: { width: 700, height: 300, channels: 3, background: { r: 200, g: 9, b: 9 } },
  })
    .png()
    .toBuffer();
  const [photo] = await storeImages(
    uploads,
    { isAdmin: true },
    "admin",
    [{ filename: "yo.png", data: png }],
    { maxBytes: 5_000_000, maxPixels: 50_000_000 },
  );
  await db.update(users).set({ ownPhotoUrl: photo!.path }).where(eq(users.id, admin!.id));
  const privateFiles = privateFolderStorage(privateDir);
  const qr = privateName("png");
  await privateFiles.write(qr, Buffer.from("qr"));
  await db.insert(paymentMethod).values({ qrFile: qr });
  const receipts = [privateName("pdf"), privateName("jpg")];
  for (const receipt of receipts) {
    const event = await createTestEvent(db, admin as User);
    await db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
    await privateFiles.write(receipt, Buffer.from("%PDF-1.4\n%%EOF\n"));
    await db.insert(payments).values({
      eventId: event.id,
      userId: admin!.id,
      amountCents: 3000,
      status: "submitted",
      receiptFile: receipt,
    });
  }
  return { photo: photo!.path, qr, receipts, uploads, privateFiles };
}

test("a receipt the store lacks fails the backup, naming it; asked explicitly, the copy is made, lists it, and its restore says so", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const site = await populate(source.db, path.join(dir, "subidas"), path.join(dir, "privado"));
  const [gone] = site.receipts;
  await site.privateFiles.remove(gone!);

  const file = path.join(dir, "copia.ayllu.gz");
  const refused = await writeBackup(
    source.db,
    file,
    source.kind,
    site.uploads,
    site.privateFiles,
  ).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(MissingFilesError);
  expect((refused as Error).message).toContain(
    `Falta 1 archivo que la base de datos nombra y el almacén no tiene: privado/${gone} (payments.receipt_file).`,
  );
  expect((refused as Error).message).toContain("--permitir-faltantes");
  expect((refused as Error).message).toContain(path.join(dir, "privado"));
  expect(fs.existsSync(file)).toBe(false);
  expect(fs.readdirSync(dir).filter((name) => name.includes("copia"))).toEqual([]);

  const header = await writeBackup(source.db, file, source.kind, site.uploads, site.privateFiles, {
    allowMissing: true,
  });
  expect(header.missing).toEqual([{ file: `privado/${gone}`, where: "payments.receipt_file" }]);
  // Everything else is in it: the other receipt, the QR, the photo's three widths.
  expect(header.files).toBe(2 + 3);

  const target = await track(createTestDatabase());
  const reported: unknown[] = [];
  await restoreBackup(target.db, file, {
    uploads: uploadStorage(path.join(dir, "subidas-destino")),
    privateFiles: privateFolderStorage(path.join(dir, "privado-destino")),
    onMissing: (missing) => reported.push(missing),
  });
  expect(reported).toEqual([[{ file: `privado/${gone}`, where: "payments.receipt_file" }]]);
  expect(await target.db.select({ receipt: payments.receiptFile }).from(payments)).toHaveLength(2);
});

test("a photo's width and the bank's QR count too, each named with the column that names it", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const site = await populate(source.db, path.join(dir, "subidas"), path.join(dir, "privado"));
  const smallest = (await site.uploads.list()).map((f) => f.name).sort()[0]!;
  expect(smallest).toMatch(/-320\.webp$/);
  await site.uploads.remove(smallest);
  await site.privateFiles.remove(site.qr);
  const error = await writeBackup(
    source.db,
    path.join(dir, "copia.ayllu.gz"),
    source.kind,
    site.uploads,
    site.privateFiles,
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MissingFilesError);
  expect((error as MissingFilesError).missing).toEqual(
    [
      { file: `privado/${site.qr}`, where: "payment_method.qr_file" },
      { file: `uploads/${smallest}`, where: "users.own_photo_url" },
    ].sort((a, b) => (a.file < b.file ? -1 : 1)),
  );
  expect((error as Error).message).toContain("Faltan 2 archivos");
});

test("a backup with nothing missing has no list, and an older backup without the field restores without a report", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const site = await populate(source.db, path.join(dir, "subidas"), path.join(dir, "privado"));
  const file = path.join(dir, "copia.ayllu.gz");
  const header = await writeBackup(source.db, file, source.kind, site.uploads, site.privateFiles);
  expect(header.missing).toBeUndefined();
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().split("\n");
  expect(JSON.parse(lines[0]!)).not.toHaveProperty("missing");

  const target = await track(createTestDatabase());
  const reported: unknown[] = [];
  await restoreBackup(target.db, file, {
    uploads: uploadStorage(path.join(dir, "subidas-destino")),
    privateFiles: privateFolderStorage(path.join(dir, "privado-destino")),
    onMissing: (missing) => reported.push(missing),
  });
  expect(reported).toEqual([]);
});

test("the nightly backup fails and records why, unless BACKUP_ALLOW_MISSING: then it lists what it went without", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const uploadsDir = path.join(dir, "subidas");
  const privateDir = path.join(dir, "privado");
  const site = await populate(source.db, uploadsDir, privateDir);
  await site.privateFiles.remove(site.receipts[1]!);
  const settings = { dir: path.join(dir, "copias"), hour: 3, keepDaily: 7, keepWeekly: 4 };
  const config = { uploadsDir, privateDir, objectStore: null };
  await expect(
    backupIntoFolder(source.db, source.kind, {
      ...config,
      backups: { ...settings, allowMissing: false },
    }),
  ).rejects.toThrow(MissingFilesError);
  const [failed] = await source.db.select().from(backupRuns);
  expect(failed!.bytes).toBeNull();
  expect(failed!.error).toContain(`privado/${site.receipts[1]}`);
  expect(fs.readdirSync(settings.dir)).toEqual([]);

  const run = await backupIntoFolder(source.db, source.kind, {
    ...config,
    backups: { ...settings, allowMissing: true },
  });
  expect(run.error).toBeNull();
  expect(run.missing).toEqual([
    { file: `privado/${site.receipts[1]}`, where: "payments.receipt_file" },
  ]);
  expect(fs.readdirSync(settings.dir)).toEqual([run.file]);
});

test("Diagnóstico shows the same check: nothing missing, then the receipt the store lacks", async () => {
  const server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL });
  servers.push(server);
  const { client, user } = await createAdmin(server);
  const textOf = (html: string) => {
    const start = html.indexOf('aria-labelledby="diag-archivos"');
    expect(start).toBeGreaterThan(-1);
    return html
      .slice(start, html.indexOf("</section>", start))
      .replaceAll("<!-- -->", "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  };
  const before = textOf((await client.get("/admin/diagnostico")).text);
  expect(before).toContain("Archivos que nombra la base de datos");
  expect(before).toMatch(/Faltan 0/);

  const event = await createTestEvent(server.db, user);
  const receipt = privateName("pdf");
  await server.db.insert(payments).values({
    eventId: event.id,
    userId: user.id,
    amountCents: 3000,
    status: "submitted",
    receiptFile: receipt,
  });
  const after = textOf((await client.get("/admin/diagnostico")).text);
  expect(after).toMatch(/Nombrados 1/);
  expect(after).toMatch(/Faltan 1/);
  expect(after).toContain(`privado/${receipt} (payments.receipt_file)`);
  expect(after).toContain("--permitir-faltantes");
});

/** `npm run <script> -- <args>` as a person runs it (tsx), with `env` over the test's own. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const own: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete own.TEST_DATABASE_URL;
  for (const name of ["DATABASE_URL", "PRIVATE_DIR", "UPLOADS_DIR", "S3_BUCKET"])
    if (!env[name]) delete own[name];
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx"),
      [`scripts/${script}.ts`, ...args],
      { cwd: PROJECT_ROOT, env: own, timeout: 180_000 },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A database for the commands: a PostgreSQL database or an embedded data folder, and its env. */
async function commandDatabase(dir: string, label: string) {
  if (usingPostgres) {
    const { name, url } = await createPostgresDatabase(postgresAdminUrl!);
    dropped.push(name);
    return {
      env: { DATABASE_URL: url, DATA_DIR: path.join(dir, label) },
      open: () => openPostgres(url),
    };
  }
  const dataDir = path.join(dir, label);
  return {
    env: { DATA_DIR: dataDir },
    open: () => openEmbedded(fs.existsSync(dataDir) ? dataDir : copyEmbeddedTemplate(dataDir)),
  };
}

test("npm run backup with the default PRIVATE_DIR instead of the server's exits 1 naming the receipts; with --permitir-faltantes it exits 0 and lists them, and npm run restore says so", async () => {
  const dir = tempDir();
  const source = await commandDatabase(dir, "origen");
  const serverUploads = path.join(dir, "subidas-del-servidor");
  const serverPrivate = path.join(dir, "privado-del-servidor");
  const database = await source.open();
  let site: Awaited<ReturnType<typeof populate>>;
  try {
    site = await populate(database.db, serverUploads, serverPrivate);
  } finally {
    await database.close();
  }
  // The server's photos folder, but PRIVATE_DIR left to its default (under DATA_DIR).
  const env = { ...source.env, UPLOADS_DIR: serverUploads };
  const file = path.join(dir, "copia.ayllu.gz");

  const refused = await run("backup", [file], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("Error: Faltan 3 archivos que la base de datos nombra");
  for (const receipt of site.receipts) expect(refused.stderr).toContain(`privado/${receipt}`);
  expect(refused.stderr).toContain(`privado/${site.qr} (payment_method.qr_file)`);
  expect(refused.stderr).not.toMatch(/^\s+at /m);
  expect(fs.existsSync(file)).toBe(false);

  const allowed = await run("backup", ["--permitir-faltantes", file], env);
  expect(allowed.code).toBe(0);
  expect(allowed.stderr).toContain(
    "Aviso: la copia se hizo sin 3 archivos que la base de datos nombra (pedido con --permitir-faltantes)",
  );
  expect(allowed.stdout).toContain(`Copia de seguridad escrita en ${file}`);

  const target = await commandDatabase(dir, "destino");
  const restored = await run("restore", [file], {
    ...target.env,
    UPLOADS_DIR: path.join(dir, "subidas-destino"),
    PRIVATE_DIR: path.join(dir, "privado-destino"),
  });
  expect(restored.code).toBe(0);
  expect(restored.stderr).toContain(
    "Aviso: la copia se hizo sin 3 archivos que la base de datos nombra; quedan sin archivo tras restaurar:",
  );
  expect(restored.stderr).toContain(`privado/${site.receipts[0]}`);
}, 600_000);
