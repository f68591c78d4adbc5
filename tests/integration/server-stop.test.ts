// A server with several workers always stops after SIGTERM (issue 53): its primary counts its
// workers itself and kills one that has not left after the stop limit (server.js). Workers need
// PostgreSQL (the embedded database is one process), so these run on PostgreSQL only.
// `npm run bench:stop` stops it a hundred times and prints how long each stop took.
import { afterEach, expect } from "vitest";
import {
  createPostgresDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";
import {
  childrenOf,
  isAlive,
  listening,
  openStreamsAndRequests,
  runServer,
  within,
  type Started,
} from "../helpers/server-process";

const postgresUrl = postgresAdminUrl;
/** Several workers share one database: the embedded one is one process. */
const onPostgres = testOnlyOn("postgres", "workers need a database they can share");
/** server.js's STOP_LIMIT_MS, and time for the killed worker's exit to arrive. */
const STOP_LIMIT_MS = 8000;
const HANG_MS = STOP_LIMIT_MS + 10_000;

const running: Started[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) {
    for (const pid of started.child.pid ? safeChildren(started.child.pid) : []) {
      if (isAlive(pid)) process.kill(pid, "SIGKILL");
    }
    if (started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill("SIGKILL");
      await started.exited;
    }
  }
});

function safeChildren(pid: number): number[] {
  try {
    return childrenOf(pid);
  } catch {
    return [];
  }
}

async function startCluster(url: string): Promise<Started & { url: URL }> {
  const started = runServer({
    DATABASE_URL: url,
    WEB_CONCURRENCY: "2",
    PORT: "0",
    HOST: "127.0.0.1",
    SEED_DEMO: "0",
  });
  running.push(started);
  return listening(started, 2);
}

onPostgres(
  "a two-worker server with live streams open and requests in flight stops ten times out of ten, every worker gone",
  { timeout: 400_000 },
  async () => {
    const { name, url } = await createPostgresDatabase(postgresUrl!, "ayllu_parada");
    try {
      for (let round = 0; round < 10; round++) {
        const server = await startCluster(url);
        const workers = childrenOf(server.child.pid!);
        expect(workers).toHaveLength(2);
        const load = await openStreamsAndRequests(server.url);
        // Requests are under way on both kinds of connection when the signal comes.
        while (load.answered() < 5) await new Promise((resolve) => setTimeout(resolve, 20));
        server.child.kill("SIGTERM");
        const code = await within(server.exited, HANG_MS, `Parada ${round + 1}`).catch(
          (error: Error) => {
            throw new Error(`${error.message}:\n${server.output()}`);
          },
        );
        expect(code, server.output()).toBe(0);
        expect(server.output()).not.toContain("a la fuerza");
        expect(workers.filter(isAlive)).toEqual([]);
        await within(load.ended, 5000, "Los canales y las peticiones abiertas");
      }
    } finally {
      await dropDatabase(postgresUrl!, name);
    }
  },
);

onPostgres(
  "a worker that does not leave after SIGTERM is killed after the stop limit, and the primary then exits",
  { timeout: 120_000 },
  async () => {
    const { name, url } = await createPostgresDatabase(postgresUrl!, "ayllu_parada");
    try {
      const server = await startCluster(url);
      const [stuck, other] = childrenOf(server.child.pid!);
      // A stopped process does not handle SIGTERM: it stays, as a worker stuck in a loop would.
      process.kill(stuck!, "SIGSTOP");
      server.child.kill("SIGTERM");
      const code = await within(server.exited, HANG_MS, "La parada con un proceso detenido").catch(
        (error: Error) => {
          throw new Error(`${error.message}:\n${server.output()}`);
        },
      );
      expect(code).toBe(1);
      expect(server.output()).toContain(
        `El proceso ${stuck} no terminó en 8 s; se detiene a la fuerza.`,
      );
      expect(isAlive(stuck!)).toBe(false);
      expect(isAlive(other!)).toBe(false);
    } finally {
      await dropDatabase(postgresUrl!, name);
    }
  },
);
