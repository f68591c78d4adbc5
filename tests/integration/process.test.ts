// `node server.js` as an operator runs it: the production build, a data folder on disk, signals.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { BrowserClient } from "../helpers/browser-client";
import {
  copyEmbeddedTemplate,
  createPostgresDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";
import { listening, runServer, within, type Started } from "../helpers/server-process";
import { signIn } from "../helpers/sign-in";

const children: ChildProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    }),
  );
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A data folder with a migrated database in it, as an earlier run of the server leaves it. */
function tempDataDir(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-proceso-"));
  folders.push(folder);
  return copyEmbeddedTemplate(folder);
}

function run(env: Record<string, string>): Started {
  const started = runServer(env);
  children.push(started.child);
  return started;
}

/** Starts a development server on a free port over `dataDir` and waits until it listens. */
function startServer(dataDir: string): Promise<Started & { url: URL }> {
  return listening(run({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "0" }));
}

async function healthOf(url: URL): Promise<number> {
  const reply = await fetch(new URL("/healthz", url));
  return reply.status;
}

test(
  "a second server on the same data folder exits non-zero with a clear Spanish message",
  { timeout: 90_000 },
  async () => {
    const dataDir = tempDataDir();
    const first = await startServer(dataDir);
    expect(await healthOf(first.url)).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, "ayllu.lock"), "utf8")).toBe(String(first.child.pid));

    const second = run({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "0" });
    const code = await within(second.exited, 30_000, "El segundo servidor");
    expect(code).not.toBe(0);
    expect(code).not.toBe("SIGKILL");
    expect(second.output()).toContain(
      `La carpeta de datos ${dataDir} ya está abierta por otro proceso (pid ${first.child.pid})`,
    );
    expect(second.output()).toContain("DATA_DIR");

    // The first one is untouched.
    expect(await healthOf(first.url)).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, "ayllu.lock"), "utf8")).toBe(String(first.child.pid));
  },
);

test(
  "SIGTERM closes the server and the database, exits 0 and frees the data folder",
  { timeout: 120_000 },
  async () => {
    const dataDir = tempDataDir();
    const first = await startServer(dataDir);
    expect(await healthOf(first.url)).toBe(200);

    first.child.kill("SIGTERM");
    expect(await within(first.exited, 30_000, "SIGTERM")).toBe(0);
    expect(first.output()).toContain("SIGTERM: cerrando el servidor y la base de datos");
    expect(fs.existsSync(path.join(dataDir, "ayllu.lock"))).toBe(false);
    await expect(healthOf(first.url)).rejects.toThrow();

    const next = await startServer(dataDir);
    expect(await healthOf(next.url)).toBe(200);
    next.child.kill("SIGTERM");
    expect(await within(next.exited, 30_000, "SIGTERM")).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "ayllu.lock"))).toBe(false);
  },
);

test(
  "a lock left behind by a process that no longer exists does not keep the server out",
  { timeout: 90_000 },
  async () => {
    const dataDir = tempDataDir();
    const gone = spawn(process.execPath, ["-e", ""]);
    const deadPid = gone.pid!;
    await new Promise((resolve) => gone.once("exit", resolve));
    fs.writeFileSync(path.join(dataDir, "ayllu.lock"), String(deadPid));

    const server = await startServer(dataDir);
    expect(await healthOf(server.url)).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, "ayllu.lock"), "utf8")).toBe(
      String(server.child.pid),
    );
  },
);

test(
  "NODE_ENV=production without configuration exits non-zero naming the missing variables",
  { timeout: 60_000 },
  async () => {
    const started = run({ NODE_ENV: "production", DATA_DIR: tempDataDir() });
    const code = await within(started.exited, 30_000, "El servidor de producción");
    expect(code).toBe(1);
    const output = started.output();
    for (const name of ["DATABASE_URL", "SESSION_SECRET", "PUBLIC_URL", "GOOGLE_CLIENT_ID"])
      expect(output).toContain(name);
    expect(output).not.toContain("Ayllu escucha en");
    expect(output).not.toMatch(/\n\s+at /);
  },
);

const postgresUrl = postgresAdminUrl;

testOnlyOn("postgres", "several workers need a database they can share")(
  "with several workers (WEB_CONCURRENCY=2) every sign-in through the development provider works, whichever worker each step reaches",
  { timeout: 180_000 },
  async () => {
    const { name, url } = await createPostgresDatabase(postgresUrl!, "ayllu_proceso");
    try {
      const cluster = await listening(
        run({
          DATABASE_URL: url,
          WEB_CONCURRENCY: "2",
          // Twenty sign-ins in a few seconds from one address.
          LOGIN_RATE_LIMIT: "10000",
          PORT: "0",
          HOST: "127.0.0.1",
          SEED_DEMO: "0",
        }),
        2,
      );
      const landed: (string | null)[] = [];
      for (let i = 0; i < 20; i++) {
        // Each request on a connection of its own: the two workers share them out.
        const client = new BrowserClient(cluster.url, { newConnections: true });
        landed.push(
          await signIn(client, { email: `persona${i}@example.com` }).catch(
            (error: unknown) => `${(error as Error).message}`,
          ),
        );
      }
      expect(landed).toEqual(Array.from({ length: 20 }, () => "/aditionaldata"));
      expect(cluster.output()).not.toMatch(/\n\s+at /);
      cluster.child.kill("SIGTERM");
      // A limit that only catches a hang: both workers close (in about a second on an idle
      // machine), but a CI run with a load average of 11 once took longer than 30 s.
      const code = await within(cluster.exited, 90_000, "SIGTERM").catch((error: Error) => {
        throw new Error(`${error.message}:\n${cluster.output()}`);
      });
      expect(code).toBe(0);
    } finally {
      await dropDatabase(postgresUrl!, name);
    }
  },
);
