// Copies that leave the server (docs/copias.md, decision 073): `npm run backup -- --to FILE` writes
// a new file and says how to take it away and restore it, refusing a folder that is not there or
// cannot be written and a file that exists; the nightly copy reaches the bucket whichever node
// runs it; the bucket keeps the copies by the folder's rule. Against s3rver on loopback, in real
// folders, on the database the suite runs on.
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { restoreBackup } from "#server/backup/backup.server";
import { backupCommand, runCommand } from "#server/backup/commands.server";
import { backupFileName, backupIntoFolder, hourIn } from "#server/backup/folder.server";
import { NIGHTLY_BACKUP_RETRY_MS, startJobs } from "#server/http/jobs.server";
import { rowsOf } from "~/db/rows.server";
import { openDatabase } from "~/db/client.server";
import { backupRuns, users } from "~/db/schema.server";
import { loadConfig } from "~/kernel/config.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import {
  copyEmbeddedTemplate,
  createPostgresDatabase,
  createTestDatabase,
  dropDatabase,
  postgresAdminUrl,
  usingPostgres,
} from "../helpers/database";
import { TEST_ENV } from "../helpers/server";
import { openSharedDatabase } from "../helpers/shared-database";
import { S3RVER_KEY, startCuttingProxy, startS3, type TestS3 } from "../helpers/s3";

const PHOTOS = "ayllu-fotos";
const COPIES = "ayllu-copias-privadas";
let s3: TestS3;
let client: S3Client;
const dirs: string[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  s3 = await startS3([PHOTOS, COPIES, "ayllu-copias-nodos", "ayllu-copias-cortadas"]);
  client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY.id, secretAccessKey: S3RVER_KEY.secret },
  });
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

function tempDir(prefix = "ayllu-copias-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function keysUnder(bucket: string, prefix: string): Promise<string[]> {
  const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listing.Contents ?? []).map((o) => o.Key!).sort();
}

const objectStore = (privateBucket: string) => ({
  endpoint: s3.endpoint,
  region: "us-east-1",
  bucket: PHOTOS,
  accessKeyId: S3RVER_KEY.id,
  secretAccessKey: S3RVER_KEY.secret,
  forcePathStyle: true,
  publicUrl: null,
  privateBucket,
});

test("after a nightly copy the bucket keeps the newest of each of the last 7 days and of the 4 weeks before, as the folder does", async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.close());
  // Copies of other nights and other nodes, two a day for 60 days before 28 November (named as
  // the nightly job names them: the name is the date the rotation reads), and objects that are
  // not nightly copies.
  const older: string[] = [];
  for (let day = 1; day <= 60; day++) {
    const at = new Date(Date.UTC(2026, 10, 28 - day, 7, 0, 0));
    older.push(backupFileName(at), backupFileName(new Date(at.getTime() + 3600_000)));
  }
  const others = ["copias/notas.txt", "copias/a-mano/ayllu-2026-01-01T070000Z.ayllu.gz"];
  await Promise.all(
    [...older.map((name) => `copias/${name}`), ...others].map((key) =>
      client.send(new PutObjectCommand({ Bucket: COPIES, Key: key, Body: "copia" })),
    ),
  );
  // The folder has a few of its own, older than the bucket's newest week.
  const dir = tempDir();
  for (const name of older.slice(0, 6)) fs.writeFileSync(path.join(dir, name), "copia");

  const run = await backupIntoFolder(
    database.db,
    database.kind,
    {
      uploadsDir: tempDir(),
      privateDir: tempDir(),
      objectStore: objectStore(COPIES),
      backups: { dir, hour: 3, keepDaily: 7, keepWeekly: 4, allowMissing: false },
    },
    () => new Date("2026-11-28T07:00:00Z"),
  );
  expect(run.error).toBeNull();
  expect(run.bucketCopy).toBe(`s3://${COPIES}/copias/${run.file}`);

  // 28 November is a Saturday: the days 22–28 (the later copy of each; the 28th's is the new
  // one), then the newest of each of the 4 weeks before the weeks of 16 and 23 November.
  const kept = [
    ...[22, 23, 24, 25, 26, 27].map((day) => `copias/ayllu-2026-11-${day}T080000Z.ayllu.gz`),
    `copias/${run.file}`,
    "copias/ayllu-2026-11-15T080000Z.ayllu.gz",
    "copias/ayllu-2026-11-08T080000Z.ayllu.gz",
    "copias/ayllu-2026-11-01T080000Z.ayllu.gz",
    "copias/ayllu-2026-10-25T080000Z.ayllu.gz",
  ];
  expect(await keysUnder(COPIES, "copias/")).toEqual([...kept, ...others].sort());
  // The folder by the same rule, over what it has: its own copies of 25–27 November and the new one.
  expect(fs.readdirSync(dir).sort()).toEqual(
    [
      "ayllu-2026-11-25T080000Z.ayllu.gz",
      "ayllu-2026-11-26T080000Z.ayllu.gz",
      "ayllu-2026-11-27T080000Z.ayllu.gz",
      run.file,
    ].sort(),
  );
});

test("the nightly copy reaches the bucket whichever node runs it, once, and not only that node's folder", async () => {
  const shared = await openSharedDatabase();
  cleanups.push(() => shared.close());
  const errors = vi.spyOn(console, "error");
  cleanups.push(() => errors.mockRestore());
  const at = new Date("2026-11-28T07:00:00Z");
  const folders = [tempDir("ayllu-nodo-a-"), tempDir("ayllu-nodo-b-")];
  const uploads = tempDir();
  const stops = [shared.first, shared.second].map((database, i) => {
    const config = loadConfig({
      ...TEST_ENV,
      ...s3.env(PHOTOS),
      S3_PRIVATE_BUCKET: "ayllu-copias-nodos",
      DATA_DIR: tempDir(),
      UPLOADS_DIR: uploads,
      BACKUP_DIR: folders[i]!,
      BACKUP_HOUR: String(hourIn(at, "America/La_Paz")),
      SITE_TIMEZONE: "America/La_Paz",
    });
    return startJobs(database, config, () => at);
  });
  try {
    await vi.waitFor(
      async () => expect(await keysUnder("ayllu-copias-nodos", "copias/")).toHaveLength(1),
      { timeout: 60_000, interval: 200 },
    );
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
  const [key] = await keysUnder("ayllu-copias-nodos", "copias/");
  const name = key!.slice("copias/".length);
  expect(name).toBe(backupFileName(at));
  // One node made it (the claim), and its file is the one in the bucket.
  const made = folders.map((folder) => fs.readdirSync(folder));
  expect(made.flat()).toEqual([name]);
  const runs = await shared.first.db.select().from(backupRuns);
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ file: name, bucketCopy: `s3://ayllu-copias-nodos/${key}` });
  expect(runs[0]!.error).toBeNull();
  expect(errors.mock.calls).toEqual([]);
});

test("a nightly copy that did not reach the bucket fails the job, recorded, so it is made again within its hour", async () => {
  // The store goes away in the middle of the copy's upload (the first write), not before.
  const proxy = await startCuttingProxy(s3.port);
  cleanups.push(() => proxy.close());
  proxy.cutPut({ after: 0, bytes: 200 });
  const shared = await openSharedDatabase();
  cleanups.push(() => shared.close());
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  const at = new Date("2026-11-28T07:00:00Z");
  const folder = tempDir("ayllu-nodo-");
  const config = loadConfig({
    ...TEST_ENV,
    ...s3.env(PHOTOS),
    S3_ENDPOINT: proxy.endpoint,
    S3_PRIVATE_BUCKET: "ayllu-copias-cortadas",
    DATA_DIR: tempDir(),
    UPLOADS_DIR: tempDir(),
    BACKUP_DIR: folder,
    BACKUP_HOUR: String(hourIn(at, "America/La_Paz")),
    SITE_TIMEZONE: "America/La_Paz",
  });
  const stop = startJobs(shared.first, config, () => at);
  const nightly = () =>
    errors.mock.calls.filter((call) => String(call[0]).includes("copia de seguridad nocturna"));
  try {
    await vi.waitFor(() => expect(nightly()).toHaveLength(1), { timeout: 60_000, interval: 200 });
  } finally {
    await stop();
  }
  expect(String(nightly()[0]![1])).toContain("no se pudo enviar al bucket");
  // The copy is in the folder, recorded as not in the bucket, and the job is due again in 10 minutes.
  expect(fs.readdirSync(folder)).toEqual([backupFileName(at)]);
  const [run] = await shared.first.db.select().from(backupRuns);
  expect(run!.bucketCopy).toBeNull();
  expect(run!.error).toContain("no se pudo enviar al bucket");
  expect(await keysUnder("ayllu-copias-cortadas", "copias/")).toEqual([]);
  const [job] = rowsOf<{ minutes: number }>(
    await shared.first.db.execute(
      sql`select extract(epoch from next_run_at - last_run_at)::float / 60 as minutes from scheduled_jobs where name = 'nightly-backup'`,
    ),
  );
  expect(job!.minutes).toBeLessThanOrEqual(NIGHTLY_BACKUP_RETRY_MS / 60_000 + 1);
});

/** A database for the commands, and the env that names it (a data folder, or PostgreSQL). */
async function commandEnv(): Promise<NodeJS.ProcessEnv> {
  const dir = tempDir("ayllu-datos-");
  if (usingPostgres) {
    const { name, url } = await createPostgresDatabase(postgresAdminUrl!);
    cleanups.push(() => dropDatabase(postgresAdminUrl!, name));
    return { DATABASE_URL: url, DATA_DIR: dir };
  }
  return { DATA_DIR: copyEmbeddedTemplate(dir) };
}

/** `npm run backup -- ARGS` in this process: its exit code and what it printed. */
async function backup(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line) => void out.push(String(line)));
  const error = vi
    .spyOn(console, "error")
    .mockImplementation((line) => void err.push(String(line)));
  try {
    const code = await runCommand(backupCommand, args, env);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

test("npm run backup -- --to FILE writes a new file only its owner reads, says where, how to scp it away and how to restore it, and it restores", async () => {
  const env = await commandEnv();
  const source = await openDatabase(loadConfig(env));
  try {
    await source.db.insert(users).values({
      issuer: "https://issuer.example",
      subject: "ana",
      email: "ana@example.com",
      emailVerified: true,
      displayName: "Ana Quispe",
    });
  } finally {
    await source.close();
  }
  const folder = tempDir();
  const file = path.join(folder, "ayllu-2026-12-07.ayllu.gz");
  const result = await backup(["--to", file], env);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(fs.readdirSync(folder)).toEqual([path.basename(file)]);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(result.stdout).toContain(
    `Copia de seguridad escrita en ${file} (${fs.statSync(file).size} bytes)`,
  );
  expect(result.stdout).toContain(`scp ${os.userInfo().username}@${os.hostname()}:${file} .`);
  expect(result.stdout).toContain("./ayllu restore ayllu-2026-12-07.ayllu.gz");
  expect(result.stdout).toContain("docs/copias.md");

  const target = await createTestDatabase();
  cleanups.push(() => target.close());
  const counts = await restoreBackup(target.db, file, { uploads: uploadStorage(tempDir()) });
  expect(counts.users).toBe(1);
  const [restored] = await target.db.select().from(users);
  expect(restored!.displayName).toBe("Ana Quispe");

  // A path with a space is quoted for the shell.
  const spaced = path.join(folder, "mi copia.ayllu.gz");
  const quoted = await backup(["--to", spaced], env);
  expect(quoted.code).toBe(0);
  expect(quoted.stdout).toContain(`scp '${os.userInfo().username}@${os.hostname()}:${spaced}' .`);
}, 120_000);

/** A folder this process cannot write: read-only (root writes anywhere else), or without write permission. */
function unwritableFolder(): string {
  const dir = tempDir("ayllu-solo-lectura-");
  if (process.getuid?.() === 0) {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", dir]);
    cleanups.push(() => void execFileSync("umount", [dir]));
  } else {
    fs.chmodSync(dir, 0o555);
    cleanups.push(() => fs.chmodSync(dir, 0o755));
  }
  return dir;
}

test("--to FILE is refused with a Spanish message and nothing written: a folder that is not there, a file that exists, a folder it cannot write, no FILE", async () => {
  const env = await commandEnv();
  const folder = tempDir();

  const nowhere = path.join(folder, "no-existe", "copia.ayllu.gz");
  const missing = await backup(["--to", nowhere], env);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe(
    `Error: No se escribió la copia: la carpeta ${path.dirname(nowhere)} no existe. Créala (mkdir -p ${path.dirname(nowhere)}) o elige otra.`,
  );
  expect(fs.readdirSync(folder)).toEqual([]);

  const existing = path.join(folder, "copia.ayllu.gz");
  fs.writeFileSync(existing, "la copia de ayer");
  const there = await backup(["--to", existing], env);
  expect(there.code).toBe(1);
  expect(there.stderr).toContain(`${existing} ya existe y no se sobrescribe`);
  expect(there.stderr).toContain(`rm ${existing}`);
  expect(fs.readFileSync(existing, "utf8")).toBe("la copia de ayer");
  expect(fs.readdirSync(folder)).toEqual(["copia.ayllu.gz"]);
  // The old form (FILE alone) is the same command: it does not overwrite either.
  expect((await backup([existing], env)).code).toBe(1);
  expect(fs.readFileSync(existing, "utf8")).toBe("la copia de ayer");

  const locked = unwritableFolder();
  const cannot = await backup(["--to", path.join(locked, "copia.ayllu.gz")], env);
  expect(cannot.code).toBe(1);
  expect(cannot.stderr).toContain(`No se escribió la copia: no se puede escribir en ${locked}`);
  expect(fs.readdirSync(locked)).toEqual([]);

  for (const args of [["--to"], ["--to", "--permitir-faltantes"], ["--to", "a", "b"]]) {
    const usage = await backup(args, env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Uso: npm run backup -- [--permitir-faltantes] [--to ARCHIVO");
  }
});

test("npm run backup -- --to - writes the whole copy on stdout and its words on stderr", async () => {
  const env = await commandEnv();
  const own: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete own.TEST_DATABASE_URL;
  if (!env.DATABASE_URL) delete own.DATABASE_URL;
  const result = await new Promise<{ code: number | null; stdout: Buffer; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(
        path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx"),
        ["scripts/backup.ts", "--to", "-"],
        { cwd: PROJECT_ROOT, env: own, timeout: 180_000 },
      );
      const chunks: Buffer[] = [];
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr: stderr }));
    },
  );
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(
    `Copia de seguridad escrita en la salida estándar (${result.stdout.length} bytes)`,
  );
  const header = JSON.parse(zlib.gunzipSync(result.stdout).toString().split("\n")[0]!) as {
    format: string;
  };
  expect(header.format).toBe("ayllu-backup");
}, 240_000); // through tsx, which compiles the server code: slow on a loaded machine
