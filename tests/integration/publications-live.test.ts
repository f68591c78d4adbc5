// The live content lists (§7) across real server processes: a change made through one `node
// server.js` reaches a stream opened on another on the same PostgreSQL (LISTEN/NOTIFY); the
// listener survives a dropped connection; an open stream does not hold up SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { copyEmbeddedTemplate, postgresAdminUrl, testOnlyOn } from "../helpers/database";
import { openEventStream, type OpenStream } from "../helpers/event-stream";
import { signInMember } from "../helpers/sign-in";

const ADMINS = "admin-a@example.com,admin-b@example.com";
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
const streams: OpenStream[] = [];

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    }),
  );
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  child: ChildProcess;
  url: URL;
  output(): string;
  exited: Promise<number | string>;
}

/** `node server.js` with only `env` (and PATH), on a free port; resolves once it listens. */
async function startProcess(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      ADMIN_EMAILS: ADMINS,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "?")),
  );
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`El servidor no arrancó a tiempo:\n${output}`)),
      45_000,
    );
    child.stdout!.on("data", () => {
      const match = /Ayllu escucha en (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`El servidor terminó (${code}) antes de escuchar:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/** A new database on the PostgreSQL server of TEST_DATABASE_URL, dropped after the test. */
async function freshPostgresDatabase(adminUrl: string): Promise<string> {
  const name = `ayllu_live_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function openStream(base: URL, cookie: string): Promise<OpenStream> {
  const stream = await openEventStream(new URL("/projectsandnotes/stream", base), cookie);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

const noteForm = (titulo: string) => ({
  intent: "createNote",
  titulo,
  texto: "En vivo",
  enlaceImagen: "",
  enlacesAdicionales: [""],
});
const isNoteCreated = (event: { data: string }) =>
  (JSON.parse(event.data) as { kind: string; action: string }).kind === "note";

const postgresUrl = postgresAdminUrl;

testOnlyOn("postgres", "two server processes need a database they can share")(
  "on PostgreSQL, a change made through one server process reaches a stream opened on another within a second, both ways, and after the listening connection drops",
  { timeout: 120_000 },
  async () => {
    const url = await freshPostgresDatabase(postgresUrl!);
    // One after the other: the first applies the migrations.
    const a = await startProcess({ DATABASE_URL: url });
    const b = await startProcess({ DATABASE_URL: url });
    const adminA = await signInMember(a.url, "admin-a@example.com", "Admin A");
    const adminB = await signInMember(b.url, "admin-b@example.com", "Admin B");

    const onB = await openStream(b.url, adminB.cookieHeader());
    let started = Date.now();
    expect(
      (await adminA.post("/projectsandnotes", noteForm(`Desde A ${randomUUID()}`))).status,
    ).toBe(302);
    await onB.waitFor(isNoteCreated, 1000);
    const aToB = Date.now() - started;

    const onA = await openStream(a.url, adminA.cookieHeader());
    started = Date.now();
    expect(
      (await adminB.post("/projectsandnotes", noteForm(`Desde B ${randomUUID()}`))).status,
    ).toBe(302);
    await onA.waitFor(isNoteCreated, 1000);
    const bToA = Date.now() - started;
    console.log(`Latencia en vivo entre procesos: A→B ${aToB} ms, B→A ${bToA} ms`);

    // Cut every LISTEN connection to this database: both servers reconnect and keep streaming.
    const dbName = new URL(url).pathname.slice(1);
    const killer = new pg.Client({ connectionString: postgresUrl! });
    await killer.connect();
    const killed = await killer.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'LISTEN%'",
      [dbName],
    );
    await killer.end();
    // One listening connection in each process, shared by the live stream, the page cache, the
    // landing sections and the mail worker.
    expect(killed.rowCount).toBe(2);
    const before = onB.events.length;
    const deadline = Date.now() + 10_000;
    let reached = false;
    while (!reached && Date.now() < deadline) {
      await adminA.post("/projectsandnotes", noteForm(`Tras reconectar ${randomUUID()}`));
      reached = await onB
        .waitFor((event) => onB.events.indexOf(event) >= before && isNoteCreated(event), 700)
        .then(
          () => true,
          () => false,
        );
    }
    expect(reached).toBe(true);
  },
);

test(
  "SIGTERM stops a server quickly while an admin's live stream is open, and the stream is ended",
  { timeout: 90_000 },
  async () => {
    const env: Record<string, string> = {};
    if (postgresUrl) {
      env.DATABASE_URL = await freshPostgresDatabase(postgresUrl);
    } else {
      const dataDir = copyEmbeddedTemplate(fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-vivo-")));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      env.DATA_DIR = dataDir;
    }
    const server = await startProcess(env);
    const admin = await signInMember(server.url, "admin-a@example.com", "Admin A");
    const stream = await openStream(server.url, admin.cookieHeader());
    // The stream works before the signal.
    expect(
      (await admin.post("/projectsandnotes", noteForm(`Antes de apagar ${randomUUID()}`))).status,
    ).toBe(302);
    await stream.waitFor(isNoteCreated, 2000);

    const started = Date.now();
    server.child.kill("SIGTERM");
    const code = await server.exited;
    const took = Date.now() - started;
    expect(code).toBe(0);
    expect(took).toBeLessThan(3000);
    await stream.ended;
  },
);
