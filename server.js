// Starts Ayllu: `node server.js` serves the production build (npm start builds it first);
// `node server.js --dev` serves the sources through Vite with hot reload (npm run dev).
// On PostgreSQL the production build runs WEB_CONCURRENCY worker processes (see README).
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import v8 from "node:v8";

// Memory (docs/decisions/024-memory.md). V8 lets its heap grow to four times what survives a
// collection when the machine has more than about 8 GB, which under load left each process
// 100 MB above what it needed; twice is enough and cost no measurable CPU in the benchmark.
// The flag is read at every collection, so setting it here applies to this process at once.
if (
  !process.execArgv.some((arg) => arg.replaceAll("_", "-").startsWith("--heap-growing-percent"))
) {
  v8.setFlagsFromString("--heap-growing-percent=100");
}

const dev = process.argv.includes("--dev");

/**
 * How long the workers have to finish their requests after SIGTERM before the primary kills
 * them: a worker closes its streams at once and cuts connections still open after 5 s
 * (server/http/app.server.ts), and container engines kill everything after 10 s.
 */
const STOP_LIMIT_MS = 8000;

// The production bundle runs React and Express in their production mode whatever NODE_ENV says
// (development React renders several times slower); the configuration still reads the NODE_ENV
// that was given, which decides the production checks (see README, Configuration).
const requestedEnv = process.env.NODE_ENV;
if (!dev) process.env.NODE_ENV = "production";

let vite;
let entry;
if (dev) {
  const { createServer } = await import("vite");
  vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  entry = await vite.ssrLoadModule("/server/http/main.server.ts");
} else {
  entry = await import("./build/server/index.js");
}

let config;
try {
  config = entry.loadConfig({ ...process.env, NODE_ENV: requestedEnv });
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (!dev && cluster.isPrimary && config.webConcurrency > 1) {
  await superviseWorkers(config.webConcurrency);
} else {
  await serve();
}

/**
 * The primary process only starts workers, starts a new one when one dies, and on SIGTERM or
 * SIGINT lets every worker finish its requests and stop. Each worker is a whole server. With the
 * development sign-in provider, which keeps sign-ins in memory, the primary runs the one provider
 * on a loopback port and the workers forward to it (app/members/dev-provider.server.ts).
 */
async function superviseWorkers(count) {
  // Workers that sign the sign-in cookie must share its secret.
  process.env.SESSION_SECRET ??= randomBytes(32).toString("base64url");
  if (config.oidc.kind === "development") {
    const shared = await entry.serveDevProviderToWorkers(process.env.SESSION_SECRET);
    process.env.AYLLU_DEV_PROVIDER_PORT = String(shared.port);
  }
  // Each worker accepts its own connections. With round-robin the primary hands connections out
  // and may give one to a worker that has just died; then that request hangs.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  let everListened = false;
  // The workers alive, counted here from each process's own 'exit'. Node removes a worker from
  // cluster.workers on exit only once its IPC channel is disconnected, so a primary that waited
  // for that list to empty could stay up with no worker and no socket.
  const live = new Set();
  const exitWhenAllGone = () => {
    if (stopping && live.size === 0) process.exit();
  };
  const fork = () => {
    // NODE_ENV as given: this process set it to production for the bundle (see above). Two
    // malloc arenas rather than glibc's one per thread in use (decision 024), unless chosen.
    const worker = cluster.fork({
      NODE_ENV: requestedEnv ?? "",
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    });
    live.add(worker);
    worker.process.once("exit", () => {
      live.delete(worker);
      exitWhenAllGone();
    });
    worker.once("listening", () => (everListened = true));
  };
  /**
   * Asks every worker to finish its requests and stop; one still there after STOP_LIMIT_MS is
   * killed, so that the whole server is gone before a container engine's own limit (10 s by
   * default) and nothing is left running without a socket.
   */
  const stopAll = () => {
    stopping = true;
    if (live.size === 0) process.exit();
    for (const worker of live) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of live) {
        console.error(
          `El proceso ${worker.process.pid} no terminó en ${STOP_LIMIT_MS / 1000} s; se detiene a la fuerza.`,
        );
        worker.process.kill("SIGKILL");
      }
      process.exitCode = 1;
      // A killed process's 'exit' arrives at once; this is only in case it does not.
      setTimeout(() => process.exit(), 2000);
    }, STOP_LIMIT_MS);
  };
  cluster.on("exit", (worker, code, signal) => {
    live.delete(worker);
    if (stopping) return exitWhenAllGone();
    // A worker that fails before any ever listened (port in use, bad configuration) would fail
    // again: stop with its code rather than loop.
    if (!everListened) {
      process.exitCode = typeof code === "number" && code !== 0 ? code : 1;
      stopAll();
      return;
    }
    console.error(
      `El proceso ${worker.process.pid} terminó (${signal ?? code}); se inicia otro en su lugar.`,
    );
    fork();
  });
  for (let i = 0; i < count; i++) fork();
  console.log(`Ayllu: ${count} procesos sobre PostgreSQL (WEB_CONCURRENCY).`);
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      if (stopping) return;
      console.log(`${signal}: deteniendo los ${count} procesos…`);
      stopAll();
    });
  }
}

async function serve() {
  let running;
  try {
    running = await entry.startServer({
      config,
      vite,
      devProviderPort: cluster.isWorker
        ? Number(process.env.AYLLU_DEV_PROVIDER_PORT) || undefined
        : undefined,
    });
  } catch (error) {
    await vite?.close();
    if (
      error instanceof Error &&
      ["DataDirInUseError", "ConfigError", "DatabaseTooNewError"].includes(error.name)
    ) {
      console.error(error.message);
      process.exit(1);
    }
    if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
      console.error(`El puerto ${config.port} ya está en uso. Elige otro con PORT=…`);
      process.exit(1);
    }
    throw error;
  }

  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: cerrando el servidor y la base de datos…`);
      try {
        await running.close();
        await vite?.close();
        process.exit(0);
      } catch (error) {
        console.error(error);
        process.exit(1);
      }
    });
  }
}
