// What production on one machine needs from the site itself (docs/instalar.md): the small-site
// mode (the embedded database in production only when asked for, its session secret made once
// into DATA_DIR), the backups into a folder (written, rotated, copied to the bucket, recorded for
// Diagnóstico, left out of backups themselves), and a database migrated by a newer version refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { ConfigError, loadConfig } from "~/kernel/config.server";
import {
  DatabaseTooNewError,
  newestKnownMigration,
  openEmbedded,
  openPostgres,
  type Database,
} from "~/db/client.server";
import { backupRuns } from "~/db/schema.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import {
  backupFileName,
  backupIntoFolder,
  backupsToDelete,
  hourIn,
} from "#server/backup/folder.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import {
  copyEmbeddedTemplate,
  createPostgresDatabase,
  createTestDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";
import { S3RVER_KEY, startS3, type TestS3 } from "../helpers/s3";

const dirs: string[] = [];
const opened: Database[] = [];
function tempDir(prefix = "ayllu-produccion-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3(["ayllu-fotos", "ayllu-privado"]);
});
afterAll(() => s3?.close());

const PRODUCTION = {
  NODE_ENV: "production",
  PUBLIC_URL: "https://eventos.example.org",
  TRUST_PROXY: "1",
  GOOGLE_CLIENT_ID: "id",
  GOOGLE_CLIENT_SECRET: "secreto",
};

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("la configuración se aceptó");
}

test("production without DATABASE_URL is refused, naming the small-site mode", () => {
  const message = configError({
    ...PRODUCTION,
    DATA_DIR: tempDir(),
    SESSION_SECRET: "x".repeat(40),
  });
  expect(message).toContain("DATABASE_URL falta");
  expect(message).toContain("EMBEDDED_DATABASE=1");
});

test("the small-site mode: embedded, one process, a session secret made once into DATA_DIR (0600)", () => {
  const dataDir = tempDir();
  const env = { ...PRODUCTION, DATA_DIR: dataDir, EMBEDDED_DATABASE: "1", WEB_CONCURRENCY: "4" };
  const config = loadConfig(env);
  expect(config.smallSite).toBe(true);
  expect(config.databaseUrl).toBeUndefined();
  expect(config.webConcurrency).toBe(1);
  // Still a real provider, never the development one; no development mailbox.
  expect(config.oidc.kind).toBe("external");
  expect(config.mail.transport.kind).toBe("none");
  const file = path.join(dataDir, "session-secret");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(config.sessionSecret).toBe(fs.readFileSync(file, "utf8").trim());
  expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  // The same secret at the next start.
  expect(loadConfig(env).sessionSecret).toBe(config.sessionSecret);
  // A secret given wins, and nothing is written.
  const other = tempDir();
  const given = loadConfig({ ...env, DATA_DIR: other, SESSION_SECRET: "s".repeat(40) });
  expect(given.sessionSecret).toBe("s".repeat(40));
  expect(fs.existsSync(path.join(other, "session-secret"))).toBe(false);
});

test("the small-site mode still needs a real way in, and excludes DATABASE_URL", () => {
  const dataDir = tempDir();
  const noProvider = configError({
    NODE_ENV: "production",
    PUBLIC_URL: "https://eventos.example.org",
    TRUST_PROXY: "1",
    DATA_DIR: dataDir,
    EMBEDDED_DATABASE: "1",
  });
  expect(noProvider).toContain("No hay ninguna forma de iniciar sesión");
  const both = configError({
    ...PRODUCTION,
    DATA_DIR: dataDir,
    EMBEDDED_DATABASE: "1",
    DATABASE_URL: "postgres://a@b/c",
    SESSION_SECRET: "x".repeat(40),
  });
  expect(both).toContain(
    "EMBEDDED_DATABASE=1 pide la base de datos embebida, pero también se dio DATABASE_URL",
  );
  expect(configError({ ...PRODUCTION, EMBEDDED_DATABASE: "quizá", DATA_DIR: dataDir })).toContain(
    "EMBEDDED_DATABASE",
  );
});

test("backup settings: defaults, and wrong values named", () => {
  const config = loadConfig({ BACKUP_DIR: "/copias" });
  expect(config.backups).toEqual({
    dir: "/copias",
    hour: 3,
    keepDaily: 7,
    keepWeekly: 4,
    allowMissing: false,
  });
  expect(loadConfig({}).backups).toBeNull();
  expect(loadConfig({ BACKUP_DIR: "/c", BACKUP_ALLOW_MISSING: "1" }).backups?.allowMissing).toBe(
    true,
  );
  expect(configError({ BACKUP_DIR: "/c", BACKUP_ALLOW_MISSING: "quizá" })).toContain(
    "BACKUP_ALLOW_MISSING",
  );
  expect(configError({ BACKUP_DIR: "/c", BACKUP_HOUR: "24" })).toContain(
    "BACKUP_HOUR debe ser una hora entre 0 y 23",
  );
  expect(configError({ BACKUP_DIR: "/c", BACKUP_HOUR: "tres" })).toContain("BACKUP_HOUR");
  expect(configError({ BACKUP_DIR: "/c", BACKUP_KEEP_DAILY: "0" })).toContain("BACKUP_KEEP_DAILY");
  expect(configError({ BACKUP_DIR: "/c", BACKUP_KEEP_WEEKLY: "-1" })).toContain(
    "BACKUP_KEEP_WEEKLY",
  );
});

test("rotation keeps the newest of each of the last 7 days and of the 4 weeks before", () => {
  // Two backups a day for 60 days, newest 2026-11-27.
  const names: string[] = [];
  for (let day = 0; day < 60; day++) {
    const at = new Date(Date.UTC(2026, 10, 27 - day, 3, 0, 0));
    names.push(backupFileName(at), backupFileName(new Date(at.getTime() + 3600_000)));
  }
  names.push("notas.txt", "ayllu-manual.ayllu.gz");
  const deleted = new Set(backupsToDelete(names, { keepDaily: 7, keepWeekly: 4 }));
  const kept = names.filter((n) => !deleted.has(n));
  expect(kept).toContain("notas.txt");
  expect(kept).toContain("ayllu-manual.ayllu.gz");
  const ours = kept.filter((n) => n.startsWith("ayllu-2026"));
  expect(ours).toHaveLength(11);
  // The 7 days: 21–27 November, the later backup of each.
  for (let day = 21; day <= 27; day++)
    expect(ours).toContain(`ayllu-2026-11-${day}T040000Z.ayllu.gz`);
  // Then the newest of each of the 4 weeks before the weeks those days are in (weeks start on
  // Monday: the 7 days span the weeks of 16 and 23 November).
  expect(ours).toContain("ayllu-2026-11-15T040000Z.ayllu.gz");
  expect(ours).toContain("ayllu-2026-11-08T040000Z.ayllu.gz");
  expect(ours).toContain("ayllu-2026-11-01T040000Z.ayllu.gz");
  expect(ours).toContain("ayllu-2026-10-25T040000Z.ayllu.gz");
  expect(
    backupsToDelete(["ayllu-2026-11-27T030000Z.ayllu.gz"], { keepDaily: 7, keepWeekly: 4 }),
  ).toEqual([]);
});

test("the backup hour is read in the site's time zone", () => {
  // 07:30 UTC is 03:30 in La Paz (UTC−4).
  expect(hourIn(new Date("2026-11-27T07:30:00Z"), "America/La_Paz")).toBe(3);
  expect(hourIn(new Date("2026-11-27T00:30:00Z"), "UTC")).toBe(0);
});

test("a backup into the folder is written, recorded, copied to the private bucket, and left out of backups", async () => {
  const database = await createTestDatabase();
  opened.push(database);
  const dir = tempDir("ayllu-copias-");
  const uploads = tempDir("ayllu-fotos-");
  const objectStore = {
    endpoint: s3.endpoint,
    region: "us-east-1",
    bucket: "ayllu-fotos",
    accessKeyId: S3RVER_KEY.id,
    secretAccessKey: S3RVER_KEY.secret,
    forcePathStyle: true,
    publicUrl: null,
    privateBucket: "ayllu-privado",
  };
  const at = new Date("2026-11-27T07:00:00Z");
  const run = await backupIntoFolder(
    database.db,
    database.kind,
    {
      uploadsDir: uploads,
      privateDir: tempDir(),
      objectStore,
      backups: { dir, hour: 3, keepDaily: 7, keepWeekly: 4, allowMissing: false },
    },
    () => at,
  );
  expect(run.file).toBe("ayllu-2026-11-27T070000Z.ayllu.gz");
  expect(fs.readdirSync(dir)).toEqual([run.file]);
  expect(run.bytes).toBe(fs.statSync(path.join(dir, run.file)).size);
  expect(run.bucketCopy).toBe(`s3://ayllu-privado/copias/${run.file}`);
  expect(run.error).toBeNull();
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY.id, secretAccessKey: S3RVER_KEY.secret },
  });
  const copy = await client.send(
    new GetObjectCommand({ Bucket: "ayllu-privado", Key: `copias/${run.file}` }),
  );
  expect(Number(copy.ContentLength)).toBe(run.bytes);
  client.destroy();
  const [row] = await database.db.select().from(backupRuns);
  expect(row).toMatchObject({ file: run.file, bytes: run.bytes, bucketCopy: run.bucketCopy });

  // The record is this machine's: a backup leaves it out, and it does not make a database "not empty".
  const file = path.join(tempDir(), "otra.ayllu.gz");
  const header = await writeBackup(database.db, file, database.kind, uploadStorage(uploads));
  expect(header.tables.map((t) => t.name)).not.toContain("backup_runs");
  const target = await createTestDatabase();
  opened.push(target);
  await target.db.insert(backupRuns).values({ id: "x", startedAt: at, file: "y" });
  await restoreBackup(target.db, file, { force: false, uploads: uploadStorage(tempDir()) });
});

test("a failed backup leaves no partial file and records why", async () => {
  const database = await createTestDatabase();
  opened.push(database);
  const parent = tempDir();
  const blocked = path.join(parent, "archivo");
  fs.writeFileSync(blocked, "no soy una carpeta");
  await expect(
    backupIntoFolder(database.db, database.kind, {
      uploadsDir: tempDir(),
      privateDir: tempDir(),
      objectStore: null,
      backups: { dir: blocked, hour: 3, keepDaily: 7, keepWeekly: 4, allowMissing: false },
    }),
  ).rejects.toThrow();
  const [row] = await database.db.select().from(backupRuns);
  expect(row!.bytes).toBeNull();
  expect(row!.error).toMatch(/EEXIST|ENOTDIR/);
});

/** Marks `database` as migrated by a version one migration newer than this one. */
async function migrateAhead(database: Database) {
  const newer = newestKnownMigration().when + 1000;
  await database.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('de-una-version-nueva', ${newer})`,
  );
}

test("an embedded database migrated by a newer version is refused with a message", async () => {
  const dir = copyEmbeddedTemplate(tempDir());
  const first = await openEmbedded(dir);
  await migrateAhead(first);
  await first.close();
  await expect(openEmbedded(dir)).rejects.toThrow(DatabaseTooNewError);
  await expect(openEmbedded(dir)).rejects.toThrow(
    /actualizada por una versión más nueva de Ayllu.*restaura una copia de seguridad/,
  );
});

testOnlyOn("postgres", "the embedded refusal is the test above")(
  "a PostgreSQL database migrated by a newer version is refused",
  async () => {
    const adminUrl = postgresAdminUrl!;
    const { name, url } = await createPostgresDatabase(adminUrl);
    try {
      const first = await openPostgres(url, { max: 1 });
      await migrateAhead(first);
      await first.close();
      await expect(openPostgres(url, { max: 1 })).rejects.toThrow(DatabaseTooNewError);
    } finally {
      await dropDatabase(adminUrl, name);
    }
  },
);
