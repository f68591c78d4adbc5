// npm run bench:admin — what opening /admin costs as the events pile up: the panel with 100 events
// and with 5,000 (BENCH_ADMIN_EVENTS, default "100,5000"), each on a fresh embedded database (and,
// with DATABASE_URL, on a fresh PostgreSQL database, dropped afterwards) with 2,000 members who take
// part in two events each. It builds the site, starts `node server.js` on loopback, signs an admin
// in by a session row and asks for /admin one request at a time (BENCH_ROUNDS, default 20, after
// 3 to warm up): the median time of an answer, the server's CPU time per answer (user + system,
// from /proc) and the bytes of the page, uncompressed and as sent to a browser (br).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createSession } from "../app/members/session.server";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";

const COUNTS = (process.env.BENCH_ADMIN_EVENTS ?? "100,5000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const MEMBERS = 2_000;
const ROOT = path.resolve(import.meta.dirname, "..");
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Events around today (half past, half upcoming), members, their participations and an admin. */
async function seed(database: Database, count: number): Promise<string> {
  const { db } = database;
  await db.execute(sql`
    insert into users (issuer, subject, email, email_verified, display_name, nombre_completo, fecha_nacimiento, pais, ciudad, genero)
    select 'https://bench.invalid', 'bench-' || g, 'miembro' || g || '@bench.invalid', true, 'miembro' || g,
           'Miembro ' || g, date '1990-01-01' + (g % 7000), 'Bolivia', 'La Paz', 'Otro'
    from generate_series(1, ${MEMBERS}) g`);
  await db.execute(sql`
    insert into events (nombre_evento, ubicacion_evento, tipo_evento, enlaces_virtuales, fecha_evento, hora_evento, starts_at,
                        ends_at, imagen_enlace, ubicacion_especifica, descripcion, published_by_name, capacity)
    select 'Evento de prueba ' || g, 'Bolivia, La Paz', 'Presencial', '{}'::text[],
           (now() at time zone 'America/La_Paz')::date + (g - ${Math.floor(count / 2)}), time '19:00',
           (((now() at time zone 'America/La_Paz')::date + (g - ${Math.floor(count / 2)})) + time '19:00') at time zone 'America/La_Paz',
           (((now() at time zone 'America/La_Paz')::date + (g - ${Math.floor(count / 2)})) + time '21:00') at time zone 'America/La_Paz',
           '/demo/vision.svg', 'Obrajes C2', 'Taller de robótica.', 'Admin', case when g % 2 = 0 then 40 end
    from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into event_sessions (id, event_id, starts_at, ends_at)
    select id, id, starts_at, ends_at from events`);
  await db.execute(sql`
    insert into participations (user_id, event_id)
    select u.id, e.id from (select id, row_number() over (order by id) n from users) u
    join (select id, row_number() over (order by starts_at) n from events) e
      on e.n = 1 + (u.n % ${count}) or e.n = 1 + ((u.n * 7) % ${count})
    on conflict do nothing`);
  const [admin] = (
    (await db.execute(sql`
      insert into users (issuer, subject, email, email_verified, display_name, nombre_completo, fecha_nacimiento, pais, ciudad, genero, is_admin)
      values ('https://bench.invalid', 'bench-admin', 'admin@bench.invalid', true, 'Admin', 'Admin del banco',
              date '1990-01-01', 'Bolivia', 'La Paz', 'Otro', true)
      returning id`)) as unknown as { rows: { id: string }[] }
  ).rows;
  const setCookie = await createSession(db, admin!.id, { secure: false });
  return setCookie.split(";")[0]!;
}

function get(port: number, pathname: string, cookie: string, encoding: string) {
  return new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        headers: { Cookie: cookie, "Accept-Encoding": encoding },
        agent: false,
      },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** CPU time (user + system, ms) the process has used so far, from /proc; null without /proc. */
function cpuMsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

async function waitFor(port: number, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`El servidor terminó con código ${child.exitCode}`);
    try {
      if ((await get(port, "/healthz", "", "identity")).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("El servidor no respondió a tiempo");
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function measure(label: string, count: number, env: Record<string, string>, cookie: string) {
  const port = await freePort();
  const server = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "0",
      NODE_ENV: "",
      // One process, so that /proc's figures are the whole server's.
      WEB_CONCURRENCY: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitFor(port, server);
    const identity = await get(port, "/admin", cookie, "identity");
    if (identity.status !== 200) throw new Error(`/admin respondió ${identity.status}`);
    const br = await get(port, "/admin", cookie, "br");
    for (let i = 0; i < 3; i++) await get(port, "/admin", cookie, "br");
    const times: number[] = [];
    const cpuBefore = cpuMsOf(server.pid!);
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      await get(port, "/admin", cookie, "br");
      times.push(performance.now() - start);
    }
    const cpuAfter = cpuMsOf(server.pid!);
    times.sort((a, b) => a - b);
    const cpu =
      cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / ROUNDS).toFixed(1) : "?";
    const row = `| ${count} | ${label} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${cpu} | ${(identity.bytes / 1024).toFixed(1)} | ${(br.bytes / 1024).toFixed(1)} |`;
    console.error(row);
    return row;
  } finally {
    await stop(server);
  }
}

async function onEmbedded(count: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-admin-"));
  try {
    const database = await openEmbedded(dataDir);
    const cookie = await seed(database, count);
    await database.close();
    return await measure(
      "embebida (PGlite)",
      count,
      { DATA_DIR: dataDir, DATABASE_URL: "" },
      cookie,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(serverUrl: string, count: number) {
  const name = `ayllu_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const database = await openPostgres(url.toString());
    const cookie = await seed(database, count);
    await database.close();
    return await measure("PostgreSQL", count, { DATABASE_URL: url.toString() }, cookie);
  } finally {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

async function main() {
  const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("La construcción falló");
  const rows: string[] = [];
  for (const count of COUNTS) {
    console.error(`\n[${count} eventos] sembrando…`);
    rows.push(await onEmbedded(count));
    if (process.env.DATABASE_URL) rows.push(await onPostgres(process.env.DATABASE_URL, count));
  }
  console.log(
    `\nGET /admin (administrador, br), ${ROUNDS} peticiones de una en una, ${MEMBERS} miembros, ${os.cpus().length} núcleos, Node ${process.version}\n`,
  );
  console.log(
    "| Eventos | Base de datos | mediana ms | máx. ms | CPU del servidor ms/req | KB sin comprimir | KB br |",
  );
  console.log("|---:|---|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(row);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
