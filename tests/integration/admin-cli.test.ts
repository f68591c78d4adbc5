import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import pg from "pg";
import { expect, onTestFinished, test } from "vitest";
import { openEmbedded, openPostgres, type Database, type Db } from "~/db/client.server";
import { users } from "~/db/schema.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import {
  copyEmbeddedTemplate,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";
import { runAdminCommand } from "../../scripts/admin-command";

// The command runs in this process (scripts/admin-command.ts); one test starts it as its own
// process, to prove the exit codes and the printed lines get out. That start takes tsx and a
// database open: seconds, not milliseconds.
const CLI_TIMEOUT_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only the given database settings, as a person running the command would have. */
function commandEnv(databaseEnv: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv };
  for (const name of ["DATABASE_URL", "DATA_DIR"]) if (!(name in databaseEnv)) delete env[name];
  delete env.TEST_DATABASE_URL;
  return env;
}

/** The admin command in this process, with what it prints collected as the console would show it. */
async function runAdmin(args: string[], databaseEnv: Record<string, string>): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runAdminCommand(args, commandEnv(databaseEnv), {
    out: (line) => stdout.push(`${line}\n`),
    err: (line) => stderr.push(`${line}\n`),
  });
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** `npm run admin -- <args>` in a process of its own (tsx starts it, as the npm script does). */
function spawnAdmin(args: string[], databaseEnv: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx"),
      ["scripts/admin.ts", ...args],
      { cwd: PROJECT_ROOT, env: commandEnv(databaseEnv), timeout: CLI_TIMEOUT_MS },
    );
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
  const adminUrl = postgresAdminUrl;
  if (adminUrl) {
    const name = `ayllu_cli_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`).finally(() => admin.end());
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    onTestFinished(() => dropDatabase(adminUrl, name));
    return {
      env: { DATABASE_URL: url.toString() },
      use: (work) => withDatabase(openPostgres(url.toString()), work),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-cli-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  copyEmbeddedTemplate(dir);
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
    db.insert(users).values(
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

test("grant makes the account with that e-mail an admin, whatever its capitals, and nobody else", async () => {
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
});

test("revoke takes admin away from that account only", async () => {
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
});

test("an e-mail nobody has signed in with exits 1 with a Spanish message and changes nothing", async () => {
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
});

test.each([
  { title: "no arguments", args: [] },
  { title: "a command but no e-mail", args: ["grant"] },
  { title: "an unknown command", args: ["promote", "ana@example.com"] },
  { title: "an extra argument", args: ["grant", "ana@example.com", "bruno@example.com"] },
])("bad usage ($title) exits 2 with the usage line and opens no database", async ({ args }) => {
  const dataDir = path.join(os.tmpdir(), `ayllu-cli-unused-${randomUUID()}`);
  const run = await runAdmin(args, { DATA_DIR: dataDir });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("Uso: npm run admin -- grant <correo>");
  expect(run.stdout).toBe("");
  expect(fs.existsSync(dataDir)).toBe(false);
});

testOnlyOn("embedded", "only an embedded data folder can be held by one process")(
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
);

test(
  "npm run admin, as its own process, prints the command's lines and exits with its code",
  { timeout: 3 * CLI_TIMEOUT_MS },
  async () => {
    const usage = await spawnAdmin(["promote", "ana@example.com"], {
      DATA_DIR: path.join(os.tmpdir(), `ayllu-cli-unused-${randomUUID()}`),
    });
    expect(usage).toMatchObject({ code: 2, stdout: "" });
    expect(usage.stderr).toContain("Uso: npm run admin -- grant <correo>");

    const store = await createStore();
    await signUp(store, ["ana@example.com"]);
    const unknown = await spawnAdmin(["grant", "nadie@example.com"], store.env);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toContain("No hay ningún usuario con el correo nadie@example.com.");
    expect(unknown.stderr).not.toMatch(/\bat .*\.ts:\d+/);

    const granted = await spawnAdmin(["grant", "ana@example.com"], store.env);
    expect(granted.stderr).not.toMatch(/error/i);
    expect(granted).toMatchObject({ code: 0, stdout: "ana@example.com: ahora es administrador\n" });
    expect(await adminFlags(store)).toEqual({ "ana@example.com": true });
  },
);
