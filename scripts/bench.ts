// npm run bench — how fast the production server answers, next to what Node.js itself can do.
// Builds the site, seeds 1,000 events and 10,000 members into a fresh embedded database (and, with
// DATABASE_URL, a fresh database on that PostgreSQL server, dropped afterwards), starts
// `node server.js` on loopback, and measures requests per second and p50/p99 latency for a few
// seconds per page; then a bare Node.js HTTP server (scripts/bench-bare.mjs) answers the same
// requests with the same bytes, and the ratio says how far the site is from that limit.
// Visitor pages are measured as sent to a browser (br) and uncompressed (identity); members'
// pages are never cached. Peak memory (RSS) of the server's processes and the load average are
// printed beside each row; on PostgreSQL the server runs WEB_CONCURRENCY workers (default: cores).
// "CPU ms/req" is the CPU time the server's processes spent (user + system, from /proc) divided by
// the requests answered: unlike req/s and p99 it stays comparable when the machine is shared.
// "máquina ms/req" is the whole machine's CPU time over the same run (the server, PostgreSQL, the
// load generator, the kernel; /proc/stat) per request, and "generador ms/req" the load
// generator's own (this process): on 2 cores, N requests a second leave 2,000 / N ms for all of it.
//   BENCH_SECONDS (default 3), BENCH_CONNECTIONS (default 50), BENCH_EVENTS (default 1000),
//   BENCH_ONLY (only the rows whose name contains it, e.g. "miembro", or one of several
//   separated by "|"), BENCH_DATABASES
//   ("embedded", "postgres" or both, default both when DATABASE_URL is set), BENCH_PORT (the
//   server's port; the bare server takes the next; default: free ports the system picks),
//   BENCH_PROFILE (a folder: the server's processes write V8 CPU profiles there, `--cpu-prof`),
//   BENCH_NODES=0 (leave out the rows of several nodes), BENCH_VARIANTS (rows per server
//   setting in one run: "PAGE_RENDER=string;PAGE_RENDER=stream", or node options such as
//   "--max-semi-space-size=16", another Node.js: "node=/ruta/a/node", another copy of the
//   project with its own build: "root=/ruta"; variants separated by ";").
// With DATABASE_URL, rows of several nodes follow (benchSeveralNodes): two nodes behind a proxy on
// one PostgreSQL and one S3 server, and a photo served from the folder beside the bucket; then the
// live results with 500 viewers (scripts/bench-results.ts, BENCH_ONLY=resultados for it alone).
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { createSession } from "../app/members/session.server";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const BROWSER_ENCODING = "gzip, deflate, br, zstd";
const ONLY = (process.env.BENCH_ONLY ?? "").split("|");
const DATABASES = (process.env.BENCH_DATABASES ?? "embedded,postgres").split(",");
const FIXED_PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : null;
// Rows per server setting in one run, minutes apart on the same machine (decision 054): variants
// separated by ";", each node options (--max-semi-space-size=16) and variables (PAGE_RENDER=stream)
// separated by spaces; "" is the server as configured.
const VARIANTS = (process.env.BENCH_VARIANTS ?? "").split(";").map((v) => v.trim());
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const MEMBERS = 10_000;
const ROOT = path.resolve(import.meta.dirname, "..");

interface Target {
  name: string;
  method: "GET" | "POST";
  /** For POSTs: each connection alternates join and leave of one event. */
  paths: string[];
  member: boolean;
  /** Accept-Encoding: "identity", or what a browser sends. */
  encoding: "identity" | "br";
}

interface Result {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function seed(database: Database) {
  const { db } = database;
  await db.execute(sql`
    insert into users (issuer, subject, email, email_verified, display_name, nombre_completo, fecha_nacimiento, pais, ciudad, genero)
    select 'https://bench.invalid', 'bench-' || g, 'miembro' || g || '@bench.invalid', true, 'miembro' || g,
           'Miembro ' || g, date '1990-01-01' + (g % 7000), 'Bolivia', 'La Paz', (array['Masculino','Femenino','Otro'])[1 + g % 3]
    from generate_series(1, ${MEMBERS}) g`);
  // Half past, half upcoming, one every ~day around now.
  await db.execute(sql`
    insert into events (nombre_evento, ubicacion_evento, tipo_evento, enlaces_virtuales, fecha_evento, hora_evento, starts_at,
                        ends_at, imagen_enlace, ubicacion_especifica, descripcion, published_by_name)
    select 'Evento de prueba ' || g, 'Bolivia, La Paz', (array['Presencial','Virtual','Hibrido'])[1 + g % 3],
           case when g % 3 = 0 then '{}'::text[] else array['https://meet.example.com/' || g] end,
           (now() at time zone 'America/La_Paz')::date + (g - ${EVENTS / 2}), time '19:00',
           (((now() at time zone 'America/La_Paz')::date + (g - ${EVENTS / 2})) + time '19:00') at time zone 'America/La_Paz',
           (((now() at time zone 'America/La_Paz')::date + (g - ${EVENTS / 2})) + time '21:00') at time zone 'America/La_Paz',
           '/demo/vision.svg', 'Obrajes C2', 'Taller y competencia de robótica. ' || repeat('Texto de la descripción. ', 10), 'Admin'
    from generate_series(1, ${EVENTS}) g`);
  // Every event has its one session (decision 043), as the site gives it.
  await db.execute(sql`
    insert into event_sessions (id, event_id, starts_at, ends_at)
    select id, id, starts_at, ends_at from events`);
  await db.execute(sql`
    insert into event_images (event_id, url, position)
    select e.id, 'https://example.com/galeria/' || e.id || '/' || i || '.png', i
    from events e cross join generate_series(0, 3) i`);
  // Each member takes part in two events.
  await db.execute(sql`
    insert into participations (user_id, event_id)
    select u.id, e.id from (select id, row_number() over (order by id) n from users) u
    join (select id, row_number() over (order by starts_at) n from events) e on e.n = 1 + (u.n % ${EVENTS}) or e.n = 1 + ((u.n * 7) % ${EVENTS})
    on conflict do nothing`);
  // Both drivers answer with { rows }.
  const rowsOf = (result: unknown) => (result as { rows: { id: string }[] }).rows;
  const [upcoming] = rowsOf(
    await db.execute(
      sql`select id from events where starts_at > now() order by starts_at limit 1 offset 10`,
    ),
  );
  const members = rowsOf(
    await db.execute(sql`select id from users order by email limit ${CONNECTIONS}`),
  );
  const cookies: string[] = [];
  for (const m of members) {
    const setCookie = await createSession(db, m.id, { secure: false });
    cookies.push(setCookie.split(";")[0]!);
  }
  return { eventId: upcoming!.id, cookies };
}

function request(
  agent: http.Agent,
  port: number,
  method: string,
  pathname: string,
  cookie: string | null,
  body: string | null,
  encoding: "identity" | "br" = "identity",
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const headers: Record<string, string> = {
        "Accept-Encoding": encoding === "br" ? BROWSER_ENCODING : "identity",
      };
      if (cookie) headers.Cookie = cookie;
      if (body !== null) {
        headers["Content-Type"] = "application/x-www-form-urlencoded";
        headers["Content-Length"] = String(Buffer.byteLength(body));
        headers.Origin = `http://127.0.0.1:${port}`;
      }
      const req = http.request(
        { host: "127.0.0.1", port, method, path: pathname, agent, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body ?? undefined);
    },
  );
}

/** The CONNECTIONS keep-alive connections of one row: its warm-up opens them, its run reuses them. */
function connections() {
  return new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
}

/** CONNECTIONS loops on `agent`'s keep-alive connections for `seconds`; every latency is kept. */
async function load(
  agent: http.Agent,
  port: number,
  target: Target,
  cookies: string[],
  seconds: number,
): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const cookie = target.member ? cookies[i % cookies.length]! : null;
      let n = 0;
      while (performance.now() < until) {
        const t0 = performance.now();
        const body = target.method === "POST" ? `intent=${n % 2 === 0 ? "join" : "leave"}` : null;
        try {
          const res = await request(
            agent,
            port,
            target.method,
            target.paths[0]!,
            cookie,
            body,
            target.encoding,
          );
          const expected = target.method === "POST" ? 302 : 200;
          if (res.status !== expected) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
        n++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
  };
}

async function untilCached(port: number, target: Target) {
  const agent = new http.Agent();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const res = await request(agent, port, "GET", target.paths[0]!, null, null, target.encoding);
      if (res.headers.etag) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    console.error(`${target.paths[0]} no llegó a la caché de páginas`);
  } finally {
    agent.destroy();
  }
}

async function waitFor(port: number, pathname: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`El servidor terminó con código ${child.exitCode}`);
    try {
      const agent = new http.Agent();
      const res = await request(agent, port, "GET", pathname, null, null);
      agent.destroy();
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("El servidor no respondió a tiempo");
}

/** Resident memory of a process and its children (the workers), in MB, from /proc. */
function rssOf(pid: number): number[] {
  const read = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  return processTree(pid).map(read);
}

/** The process and its children (the workers). */
function processTree(pid: number): number[] {
  try {
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/** CPU time (user + system, ms) the server's processes have used so far, from /proc; null without /proc. */
function cpuMsOf(pid: number): number | null {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) start at ") ".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += Number(fields[11]) + Number(fields[12]); // utime, stime in clock ticks
    } catch {
      return null;
    }
  }
  return (total * 1000) / CLOCK_TICKS;
}

/**
 * CPU time the whole machine spent (every process and the kernel: user, nice, system, irq,
 * softirq, steal), from /proc/stat; null where there is none.
 */
function machineBusyMs(): number | null {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.slice(1).map(Number);
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

const CLOCK_TICKS = (() => {
  const out = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  return Number(out.stdout?.trim()) || 100;
})();

/** Samples the peak RSS of each of the server's processes while `run` goes on. */
async function withPeakMemory<T>(pid: number, run: () => Promise<T>): Promise<[T, number[]]> {
  let peak: number[] = [];
  const sample = () => {
    const now = rssOf(pid);
    peak = now.map((mb, i) => Math.max(mb, peak[i] ?? 0));
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await run();
    sample();
    return [result, peak];
  } finally {
    clearInterval(timer);
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function benchDatabase(
  label: string,
  prepare: () => Promise<{
    database: Database;
    env: Record<string, string>;
    cleanup: () => Promise<void>;
  }>,
) {
  console.error(`\n[${label}] sembrando ${EVENTS} eventos y ${MEMBERS} miembros…`);
  const { database, env, cleanup } = await prepare();
  const seeded = await seed(database);
  await database.close();
  const rows: string[] = [];
  try {
    for (const variant of VARIANTS) await benchVariant(label, variant, env, seeded, rows);
  } finally {
    await cleanup();
  }
  return rows;
}

/** One server setting's rows (BENCH_VARIANTS) on the seeded database. */
async function benchVariant(
  label: string,
  variant: string,
  env: Record<string, string>,
  seeded: Awaited<ReturnType<typeof seed>>,
  rows: string[],
) {
  const port = FIXED_PORT ?? (await freePort());
  if (PROFILE_DIR) fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const nodeArgs = PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  // Node or V8 options for the server (e.g. `--max-semi-space-size=8`), to compare settings.
  nodeArgs.push(...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean));
  // This variant's own settings (BENCH_VARIANTS): node options and environment variables.
  const words = variant.split(" ").filter(Boolean);
  nodeArgs.push(...words.filter((w) => w.startsWith("--")));
  // "node=/path/to/node" runs the server on another Node.js (e.g. 24 beside this 20).
  const nodeBinary = words.find((w) => w.startsWith("node="))?.slice("node=".length);
  // "root=/dir" runs the server.js (and build) of another copy of the project: another build.
  const root = words.find((w) => w.startsWith("root="))?.slice("root=".length) ?? ROOT;
  const variantEnv = Object.fromEntries(
    words
      .filter((w) => !w.startsWith("--") && !w.startsWith("node=") && !w.startsWith("root="))
      .map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]),
  );
  const server = spawn(nodeBinary ?? process.execPath, [...nodeArgs, "server.js"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      ...variantEnv,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "0",
      NODE_ENV: "",
      // As the production command of docs/produccion.md starts it (decision 024).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitFor(port, "/healthz", server);
    const detail = `/detalles/${seeded.eventId}`;
    const visitorPages: Array<[string, string]> = [
      ["GET /", "/"],
      ["GET /eventos", "/eventos"],
      ["GET /detalles/:id", detail],
      ["GET /notas", "/notas"],
      ["GET /sitemap.xml", "/sitemap.xml"],
    ];
    const targets: Target[] = [];
    for (const [name, pathname] of visitorPages) {
      for (const encoding of ["br", "identity"] as const)
        targets.push({
          name: `${name} (visitante, ${encoding})`,
          method: "GET",
          paths: [pathname],
          member: false,
          encoding,
        });
    }
    targets.push(
      {
        name: "GET / (miembro, br)",
        method: "GET",
        paths: ["/"],
        member: true,
        encoding: "br",
      },
      {
        name: "GET /detalles/:id (miembro, br)",
        method: "GET",
        paths: [detail],
        member: true,
        encoding: "br",
      },
      {
        name: "GET /eventos (miembro, br)",
        method: "GET",
        paths: ["/eventos"],
        member: true,
        encoding: "br",
      },
      {
        name: "POST /detalles/:id participar/dejar (miembro)",
        method: "POST",
        paths: [detail],
        member: true,
        encoding: "identity",
      },
    );
    const chosen = targets.filter((t) => ONLY.some((part) => t.name.includes(part)));
    // The exact answers, for the bare server.
    const answers: Record<
      string,
      { status: number; headers: Record<string, string>; body: string }
    > = {};
    const agent = new http.Agent({ keepAlive: true });
    for (const t of chosen) {
      for (const intent of t.method === "POST" ? ["join", "leave"] : [null]) {
        const res = await request(
          agent,
          port,
          t.method,
          t.paths[0]!,
          t.member ? seeded.cookies[0]! : null,
          intent ? `intent=${intent}` : null,
          t.encoding,
        );
        const headers: Record<string, string> = {};
        for (const name of [
          "content-type",
          "content-encoding",
          "location",
          "set-cookie",
          "cache-control",
        ]) {
          const v = res.headers[name];
          if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(", ") : v;
        }
        answers[`${t.method} ${t.paths[0]} ${t.member ? "member" : "visitor"} ${t.encoding}`] = {
          status: res.status,
          headers,
          body: res.body.toString("base64"),
        };
      }
    }
    agent.destroy();
    const answersFile = path.join(
      os.tmpdir(),
      `ayllu-bench-${randomBytes(4).toString("hex")}.json`,
    );
    fs.writeFileSync(answersFile, JSON.stringify(answers));
    const barePort = FIXED_PORT ? FIXED_PORT + 1 : await freePort();
    const bare = fork(path.join(ROOT, "scripts/bench-bare.mjs"), [answersFile, String(barePort)], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    await new Promise<void>((resolve) => bare.once("message", () => resolve()));
    try {
      for (const t of chosen) {
        // The warm-up opens the row's 50 connections and the run reuses them, as browsers keep
        // theirs: 50 connections opened at once against a busy server wait to be accepted (Node
        // accepts one per turn of its event loop), which measured the connection storm, not the page.
        const siteConnections = connections();
        await load(siteConnections, port, t, seeded.cookies, 0.5); // warm-up
        // A visitor's page is measured as served from the page cache (only its answers carry an
        // ETag); on a busy machine the first entry may take longer than the warm-up to be kept.
        if (!t.member) await untilCached(port, t);
        const cpuBefore = cpuMsOf(server.pid!);
        const machineBefore = machineBusyMs();
        const loaderBefore = process.cpuUsage();
        const [site, peak] = await withPeakMemory(server.pid!, () =>
          load(siteConnections, port, t, seeded.cookies, SECONDS),
        );
        const loaderUsage = process.cpuUsage(loaderBefore);
        const machineAfter = machineBusyMs();
        siteConnections.destroy();
        const cpuAfter = cpuMsOf(server.pid!);
        const perRequest = (ms: number | null) =>
          ms !== null && site.requests > 0 ? (ms / site.requests).toFixed(2) : "?";
        const cpuPerRequest = perRequest(
          cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
        );
        const machinePerRequest = perRequest(
          machineBefore !== null && machineAfter !== null ? machineAfter - machineBefore : null,
        );
        const loaderPerRequest = perRequest((loaderUsage.user + loaderUsage.system) / 1000);
        const loadAverage = os.loadavg()[0]!.toFixed(1);
        const bareConnections = connections();
        await load(bareConnections, barePort, t, seeded.cookies, 0.5); // warm-up
        const limit = await load(bareConnections, barePort, t, seeded.cookies, SECONDS);
        bareConnections.destroy();
        const ratio = site.rps / limit.rps;
        rows.push(
          `| ${t.name} | ${variant ? `${label}, ${variant}` : label} | ${cpuPerRequest} | ${machinePerRequest} | ${loaderPerRequest} | ${site.rps.toFixed(0)} | ${site.p50.toFixed(1)} | ${site.p99.toFixed(1)} | ${limit.rps.toFixed(0)} | ${limit.p50.toFixed(1)} | ${limit.p99.toFixed(1)} | ${(ratio * 100).toFixed(1)} %${site.errors ? ` (${site.errors} errores)` : ""} | ${peak.map((mb) => mb.toFixed(0)).join(" + ")} | ${loadAverage} |`,
        );
        console.error(rows.at(-1));
      }
    } finally {
      await stop(bare);
      fs.rmSync(answersFile, { force: true });
    }
  } finally {
    await stop(server);
  }
}

/**
 * The rows of several nodes (docs/varias-maquinas.md), with DATABASE_URL: two `node server.js`
 * nodes (one process each) on one PostgreSQL database and one S3 server (s3rver in a process of
 * its own), behind a round-robin proxy in another (scripts/bench-proxy.mjs). On a 2-core machine
 * this measures what the proxy and the coordination cost and that nothing fails under load, not
 * a gain in throughput. Then a photo served through one node from its folder and from the bucket.
 */
async function benchSeveralNodes(serverUrl: string): Promise<string[]> {
  const label = "PostgreSQL";
  console.error(`\n[varios nodos] sembrando ${EVENTS} eventos y ${MEMBERS} miembros…`);
  const name = `ayllu_bench_nodos_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const folders: string[] = [];
  const children: ChildProcess[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-nodos-"));
    folders.push(dir);
    return dir;
  };
  const rows: string[] = [];
  try {
    const database = await openPostgres(url.toString());
    const seeded = await seed(database);
    await database.close();

    // The S3 server, its bucket, and one photo in it and in a folder (named as uploads are).
    const s3Port = await freePort();
    const s3 = spawn(
      process.execPath,
      [
        path.join(ROOT, "node_modules/s3rver/bin/s3rver.js"),
        "-d",
        tempDir(),
        "-a",
        "127.0.0.1",
        "-p",
        String(s3Port),
        "-s",
        "--configure-bucket",
        "ayllu-bench",
      ],
      { stdio: "ignore" },
    );
    children.push(s3);
    const s3Env = {
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_REGION: "us-east-1",
      S3_BUCKET: "ayllu-bench",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
    };
    const photo = await sharp({
      create: { width: 640, height: 427, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .webp()
      .toBuffer();
    const photoName = `${randomBytes(16).toString("hex")}-640.webp`;
    const uploadsDir = tempDir();
    fs.writeFileSync(path.join(uploadsDir, photoName), photo);
    for (let attempt = 0; ; attempt++) {
      try {
        const put = await fetch(`${s3Env.S3_ENDPOINT}/ayllu-bench/imagenes/${photoName}`, {
          method: "PUT",
          body: new Uint8Array(photo),
          headers: { "Content-Type": "image/webp" },
        });
        if (put.ok) break;
      } catch {
        // not up yet
      }
      if (attempt > 100) throw new Error("s3rver no arrancó");
      await new Promise((r) => setTimeout(r, 100));
    }

    const startNode = async (env: Record<string, string>) => {
      const port = await freePort();
      const child = spawn(process.execPath, ["server.js"], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: url.toString(),
          DATA_DIR: tempDir(),
          PORT: String(port),
          HOST: "127.0.0.1",
          SEED_DEMO: "0",
          NODE_ENV: "",
          TRUST_PROXY: "1",
          SESSION_SECRET: "bench-secreto-bench-secreto-bench-secreto-0123",
          MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
          ...env,
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      children.push(child);
      await waitFor(port, "/healthz", child);
      return { child, port };
    };

    /** One row: the load on `port`, CPU summed over `pids` (and their workers). */
    const measure = async (name: string, target: Target, port: number, pids: number[]) => {
      const agent = connections();
      await load(agent, port, target, seeded.cookies, 0.5); // warm-up
      const cpu = () => {
        const each = pids.map(cpuMsOf);
        return each.some((v) => v === null) ? null : each.reduce((a, b) => a! + b!, 0)!;
      };
      const cpuBefore = cpu();
      const machineBefore = machineBusyMs();
      const loaderBefore = process.cpuUsage();
      const result = await load(agent, port, target, seeded.cookies, SECONDS);
      const loaderUsage = process.cpuUsage(loaderBefore);
      const machineAfter = machineBusyMs();
      const cpuAfter = cpu();
      agent.destroy();
      const perRequest = (ms: number | null) =>
        ms !== null && result.requests > 0 ? (ms / result.requests).toFixed(2) : "?";
      const row = `| ${name} | ${label} | ${perRequest(cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null)} | ${perRequest(machineBefore !== null && machineAfter !== null ? machineAfter - machineBefore : null)} | ${perRequest((loaderUsage.user + loaderUsage.system) / 1000)} | ${result.rps.toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | — | — | — | —${result.errors ? ` (${result.errors} errores)` : ""} | ${pids
        .flatMap((pid) => rssOf(pid))
        .map((mb) => mb.toFixed(0))
        .join(" + ")} | ${os.loadavg()[0]!.toFixed(1)} |`;
      rows.push(row);
      console.error(row);
    };

    const detail = `/detalles/${seeded.eventId}`;
    const nodeTargets: Array<[string, Target]> = [
      [
        "GET /eventos (visitante, br), dos nodos tras el proxy",
        { name: "", method: "GET", paths: ["/eventos"], member: false, encoding: "br" },
      ],
      [
        "POST /detalles/:id participar/dejar (miembro), dos nodos tras el proxy",
        { name: "", method: "POST", paths: [detail], member: true, encoding: "identity" },
      ],
    ];
    const photoTargets: Array<[string, Target]> = [
      [
        "GET /imagenes/:foto, desde la carpeta",
        {
          name: "",
          method: "GET",
          paths: [`/imagenes/${photoName}`],
          member: false,
          encoding: "br",
        },
      ],
      [
        "GET /imagenes/:foto, desde el bucket (s3rver)",
        {
          name: "",
          method: "GET",
          paths: [`/imagenes/${photoName}`],
          member: false,
          encoding: "br",
        },
      ],
    ];
    const wanted = (rowName: string) => ONLY.some((part) => rowName.includes(part));

    if (nodeTargets.some(([rowName]) => wanted(rowName))) {
      const proxyPort = await freePort();
      // The site's origin is the proxy's: the nodes check a post's Origin against it.
      const nodeEnv = {
        ...s3Env,
        WEB_CONCURRENCY: "1",
        PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      };
      const a = await startNode(nodeEnv);
      const b = await startNode(nodeEnv);
      const proxy = fork(
        path.join(ROOT, "scripts/bench-proxy.mjs"),
        [String(proxyPort), `http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`],
        { stdio: ["ignore", "ignore", "inherit", "ipc"] },
      );
      children.push(proxy);
      await new Promise<void>((resolve) => proxy.once("message", () => resolve()));
      for (const [rowName, target] of nodeTargets) {
        if (!wanted(rowName)) continue;
        if (!target.member) await untilCached(proxyPort, target);
        await measure(rowName, target, proxyPort, [a.child.pid!, b.child.pid!, proxy.pid!]);
      }
      await stop(proxy);
      await stop(a.child);
      await stop(b.child);
    }

    for (const [index, [rowName, target]] of photoTargets.entries()) {
      if (!wanted(rowName)) continue;
      const env: Record<string, string> = index === 0 ? { UPLOADS_DIR: uploadsDir } : s3Env;
      const node = await startNode({ ...env, WEB_CONCURRENCY: "1" });
      await measure(rowName, target, node.port, [node.child.pid!]);
      await stop(node.child);
    }
  } finally {
    for (const child of children) await stop(child);
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

async function main() {
  const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("La construcción falló");
  const rows: string[] = [];

  if (DATABASES.includes("embedded"))
    rows.push(
      ...(await benchDatabase("embebida (PGlite)", async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-"));
        return {
          database: await openEmbedded(dataDir),
          env: { DATA_DIR: dataDir, DATABASE_URL: "" },
          cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
        };
      })),
    );

  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl && DATABASES.includes("postgres")) {
    rows.push(
      ...(await benchDatabase("PostgreSQL", async () => {
        const name = `ayllu_bench_${randomBytes(5).toString("hex")}`;
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        return {
          database: await openPostgres(url.toString()),
          env: {
            DATABASE_URL: url.toString(),
            WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? String(os.availableParallelism()),
          },
          cleanup: async () => {
            const c = new pg.Client({ connectionString: serverUrl });
            await c.connect();
            await c.query(`drop database if exists ${name} with (force)`);
            await c.end();
          },
        };
      })),
    );
  }

  if (serverUrl && DATABASES.includes("postgres") && process.env.BENCH_NODES !== "0")
    rows.push(...(await benchSeveralNodes(serverUrl)));

  console.log(
    `\n${CONNECTIONS} conexiones, ${SECONDS} s por página, ${EVENTS} eventos, ${os.cpus().length} núcleos (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}\n`,
  );
  console.log(
    "| Petición | Base de datos | CPU ms/req | máquina ms/req | generador ms/req | req/s | p50 ms | p99 ms | Node puro req/s | p50 ms | p99 ms | sitio / Node puro | RSS máx. MB (procesos) | carga 1 min |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(row);

  // Live results with 500 viewers on one process (decision 058): scripts/bench-results.ts.
  if (
    serverUrl &&
    DATABASES.includes("postgres") &&
    ONLY.some((p) => "resultados en vivo".includes(p))
  )
    spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/bench-results.ts"], {
      cwd: ROOT,
      stdio: "inherit",
    });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
