import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import pg from "pg";
import { expect, onTestFinished, test } from "vitest";
import { openEmbedded, openPostgres, type Database, type Db } from "#server/db/client.server";
import { users } from "#server/db/schema.server";
import { PROJECT_ROOT } from "#server/paths.server";
import { usingPostgres } from "../helpers/database";

// Each run starts tsx and opens (and migrates) a database: seconds, not milliseconds.
const CLI_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 120_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- <args>`, as a person would run it, with only the given database settings. */
function runAdmin(args: string[], databaseEnv: Record<string, string>): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv };
  for (const name of ["DATABASE_URL", "DATA_DIR"]) if (!(name in databaseEnv)) delete env[name];
  delete env.TEST_DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/admin.ts", ...args], {
      cwd: PROJECT_ROOT,
      env,
      timeout: CLI_TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Store {
  /** What the command line needs to find this database. */
  env: Record<string, string>;
  /** Opens the database, runs `work`, closes it again (an embedded folder has one user at a time). */
  use<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/**
 * A database the command line can open on its own: a new database on the PostgreSQL server of
 * TEST_DATABASE_URL, or an embedded one in a temporary DATA_DIR. Removed when the test ends.
 */
async function createStore(): Promise<Store> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `ayllu_cli_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`).finally(() => admin.end());
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    onTestFinished(async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup
        .query(`drop database if exists ${name} with (force)`)
        .finally(() => cleanup.end());
    });
    return {
      env: { DATABASE_URL: url.toString() },
      use: (work) => withDatabase(openPostgres(url.toString()), work),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-cli-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dir }, use: (work) => withDatabase(openEmbedded(dir), work) };
}

async function withDatabase<T>(
  opening: Promise<Database>,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  const database = await opening;
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** People who have signed in once: the command line only knows accounts that exist. */
async function signUp(store: Store, emails: string[]) {
  await store.use((db) =>
    db
      .insert(users)
      .values(
        emails.map((email) => ({
          issuer: "https://accounts.google.com",
          subject: randomUUID(),
          email,
          emailVerified: true,
        })),
      ),
  );
}

function adminFlags(store: Store) {
  return store.use(async (db) => {
    const rows = await db
      .select({ email: users.email, isAdmin: users.isAdmin })
      .from(users)
      .orderBy(asc(users.email));
    return Object.fromEntries(rows.map((r) => [r.email, r.isAdmin]));
  });
}

test(
  "grant makes the account with that e-mail an admin, whatever its capitals, and nobody else",
  async () => {
    const store = await createStore();
    await signUp(store, ["ana@example.com", "bruno@example.com"]);

    const run = await runAdmin(["grant", "ANA@Example.com"], store.env);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ana@example.com: ahora es administrador");
    expect(await adminFlags(store)).toEqual({
      "ana@example.com": true,
      "bruno@example.com": false,
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "revoke takes admin away from that account only",
  async () => {
    const store = await createStore();
    await signUp(store, ["ana@example.com", "bruno@example.com"]);
    await store.use((db) => db.update(users).set({ isAdmin: true }));

    const run = await runAdmin(["revoke", "ana@example.com"], store.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ana@example.com: ya no es administrador");
    expect(await adminFlags(store)).toEqual({
      "ana@example.com": false,
      "bruno@example.com": true,
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "an e-mail nobody has signed in with exits 1 with a Spanish message and changes nothing",
  async () => {
    const store = await createStore();
    await signUp(store, ["ana@example.com"]);

    const run = await runAdmin(["grant", "nadie@example.com"], store.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "No hay ningún usuario con el correo nadie@example.com. La persona debe iniciar sesión una vez antes.",
    );
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(run.stdout).toBe("");
    expect(await adminFlags(store)).toEqual({ "ana@example.com": false });
  },
  TEST_TIMEOUT_MS,
);

test.each([
  { title: "no arguments", args: [] },
  { title: "a command but no e-mail", args: ["grant"] },
  { title: "an unknown command", args: ["promote", "ana@example.com"] },
  { title: "an extra argument", args: ["grant", "ana@example.com", "bruno@example.com"] },
])(
  "bad usage ($title) exits 2 with the usage line and opens no database",
  async ({ args }) => {
    const dataDir = path.join(os.tmpdir(), `ayllu-cli-unused-${randomUUID()}`);
    const run = await runAdmin(args, { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Uso: npm run admin -- grant <correo>");
    expect(run.stdout).toBe("");
    expect(fs.existsSync(dataDir)).toBe(false);
  },
  TEST_TIMEOUT_MS,
);

test.skipIf(usingPostgres)(
  "an embedded database held by a running server is left alone, with a message saying to stop it",
  async () => {
    const store = await createStore();
    await signUp(store, ["ana@example.com"]);
    const running = await openEmbedded(store.env.DATA_DIR!);
    try {
      const run = await runAdmin(["grant", "ana@example.com"], store.env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("ya está abierta por otro proceso");
      expect(run.stderr).toContain("Detén el servidor");
      const [row] = await running.db.select().from(users);
      expect(row!.isAdmin).toBe(false);
    } finally {
      await running.close();
    }
  },
  TEST_TIMEOUT_MS,
);
