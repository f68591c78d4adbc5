// npm run bench:results (and the end of `npm run bench` with DATABASE_URL) — live results with
// many viewers (decision 058). Seeds a competition with a time trial of 16 teams in a
// fresh database on the PostgreSQL server of DATABASE_URL, starts one `node server.js` process on
// it, opens BENCH_VIEWERS (default 500) streams of its results page, then enters BENCH_ENTRIES
// (default 20) runs as a judge through a second connection (as another process of the site
// would), one at a time, and measures for each the time from the entry's commit to the last
// viewer having it; and the server's memory (RSS) before and with the viewers. The viewers are
// this process: their parsing is part of the figure, so it is an upper bound.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { openPostgres } from "../app/db/client.server";
import { competitionCategories, competitionTeams, schools, users } from "../app/db/schema.server";
import { createEvent } from "~/events/event-commands.server";
import { EventSchema } from "../app/events/schemas";
import { enterRun } from "../app/competitions/judging/entries.server";
import { grantRole, loadGrants } from "../app/members/roles.server";
import { makeCompete } from "../tests/helpers/competitions";

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 500);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20);
const TEAMS = 16;
const ROOT = path.resolve(import.meta.dirname, "..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitFor(port: number) {
  for (let i = 0; i < 600; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      http
        .get({ host: "127.0.0.1", port, path: "/healthz" }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        })
        .on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("El servidor no arrancó");
}

function rssMb(pid: number): number {
  const status = spawnSync("cat", [`/proc/${pid}/status`], { encoding: "utf8" }).stdout;
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.log("bench:results necesita DATABASE_URL (un servidor PostgreSQL): se omite.");
    return;
  }
  const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("La construcción falló");
  const name = `ayllu_bench_results_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  const db = database.db;
  let server: ReturnType<typeof spawn> | null = null;
  try {
    // The competition: one time trial of 16 approved teams, and its judge.
    const [boss] = await db
      .insert(users)
      .values({
        issuer: "https://bench.invalid",
        subject: randomUUID(),
        email: "jefa@bench.invalid",
        emailVerified: true,
        nombreCompleto: "Jefa Bench",
        isAdmin: true,
      })
      .returning();
    const event = await createEvent(
      db,
      { ...boss!, grants: [] },
      EventSchema.parse({
        nombreEvento: "Clash Robotics (bench)",
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial",
        fechaEvento: "2030-12-06",
        horaEvento: "19:00",
        imagenEnlace: "https://example.com/clash.png",
        ubicacionEspecifica: "Coliseo",
        descripcion: "Resultados en vivo.",
        enlacesVirtuales: [],
      }),
      "America/La_Paz",
    );
    const [category] = await db
      .insert(competitionCategories)
      .values({
        eventId: event!.id,
        position: 1,
        name: "Seguidor de línea",
        level: "abierta",
        minMembers: 1,
        maxMembers: 3,
        coachRequired: false,
        registrationClosesAt: new Date(Date.now() - 3_600_000),
        format: "tiempo",
        attempts: 3,
      })
      .returning({ id: competitionCategories.id });
    const [school] = await db
      .insert(schools)
      .values({ name: "Colegio Bench" })
      .returning({ id: schools.id });
    const teams = await db
      .insert(competitionTeams)
      .values(
        Array.from({ length: TEAMS }, (_, i) => ({
          eventId: event!.id,
          categoryId: category!.id,
          name: `Equipo ${i + 1}`,
          schoolId: school!.id,
          city: "La Paz",
          robotName: `Robot ${i + 1}`,
          status: "approved",
        })),
      )
      .returning({ id: competitionTeams.id });
    const [judgeRow] = await db
      .insert(users)
      .values({
        issuer: "https://bench.invalid",
        subject: randomUUID(),
        email: "jurado@bench.invalid",
        emailVerified: true,
        nombreCompleto: "Julia Jurado",
      })
      .returning();
    await grantRole(
      db,
      { ...boss!, grants: [] },
      {
        userId: judgeRow!.id,
        kind: "judge",
        eventId: event!.id,
        categoryId: category!.id,
      },
    );
    const judge = { ...judgeRow!, grants: await loadGrants(db, judgeRow!.id) };
    // They compete: checked in at the door, their robots passed (decision 055).
    await makeCompete(
      db,
      teams.map((t) => t.id),
    );

    const port = await freePort();
    server = spawn(process.execPath, ["server.js"], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: "1",
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SEED_DEMO: "0",
        NODE_ENV: "",
        RESULTS_STREAMS_PER_ADDRESS: String(VIEWERS + 10),
        RESULTS_STREAMS_MAX: String(VIEWERS + 10),
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(port);
    // A visitor's page first: what a viewer loads before the stream.
    await new Promise<void>((resolve, reject) =>
      http
        .get(`http://127.0.0.1:${port}/detalles/${event!.id}/resultados`, (res) => {
          res.resume();
          res.on("end", () => resolve());
        })
        .on("error", reject),
    );
    const rssBefore = rssMb(server.pid!);

    // The viewers: each waits for the frame in which the expected run shows.
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const waiting = new Set<(frame: string, at: number) => void>();
    const viewers: http.ClientRequest[] = [];
    await Promise.all(
      Array.from(
        { length: VIEWERS },
        () =>
          new Promise<void>((resolve, reject) => {
            const request = http.get(
              `http://127.0.0.1:${port}/detalles/${event!.id}/resultados/en-vivo`,
              { agent },
              (res) => {
                if (res.statusCode !== 200) return reject(new Error(`flujo: ${res.statusCode}`));
                res.setEncoding("utf8");
                let buffer = "";
                res.on("data", (chunk: string) => {
                  buffer += chunk;
                  let end;
                  while ((end = buffer.indexOf("\n\n")) >= 0) {
                    const frame = buffer.slice(0, end);
                    buffer = buffer.slice(end + 2);
                    if (frame.startsWith("event: results"))
                      for (const w of waiting) w(frame, performance.now());
                  }
                });
                res.once("data", () => resolve());
              },
            );
            request.on("error", reject);
            viewers.push(request);
          }),
      ),
    );
    const rssWithViewers = rssMb(server.pid!);

    const latencies: number[] = [];
    for (let i = 0; i < ENTRIES; i++) {
      const teamId = teams[i % TEAMS]!.id;
      const attempt = Math.floor(i / TEAMS) + 1;
      const timeMs = 30_000 - i * 7;
      const marker = `${timeMs}`;
      let got = 0;
      let last = 0;
      const all = new Promise<void>((resolve) => {
        const check = (frame: string, at: number) => {
          if (!frame.includes(teamId) || !frame.includes(marker)) return;
          got++;
          last = at;
          if (got === VIEWERS) {
            waiting.delete(check);
            resolve();
          }
        };
        // Each viewer's frame counts once: a later frame of the same entry would too, so the
        // check is per frame and the count stops at the viewers' number.
        waiting.add(check);
      });
      await enterRun(db, judge, category!.id, {
        teamId,
        attempt,
        timeMs: String(timeMs),
        penaltyMs: "0",
        clientEntryId: randomUUID(),
      });
      const committed = performance.now();
      await Promise.race([
        all,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error("no todos los espectadores lo recibieron")), 10_000),
        ),
      ]);
      latencies.push(last - committed);
      await new Promise((r) => setTimeout(r, 250));
    }
    const rssAfter = rssMb(server.pid!);
    for (const v of viewers) v.destroy();
    latencies.sort((a, b) => a - b);
    console.log(
      `\nResultados en vivo: ${VIEWERS} espectadores en un proceso (PostgreSQL), ${ENTRIES} resultados de un jurado uno por uno`,
    );
    console.log("| Medida | Valor |");
    console.log("|---|---:|");
    console.log(
      `| del resultado guardado al último espectador, p50 | ${percentile(latencies, 50).toFixed(0)} ms |`,
    );
    console.log(`| ídem, p95 | ${percentile(latencies, 95).toFixed(0)} ms |`);
    console.log(`| ídem, máximo | ${latencies.at(-1)!.toFixed(0)} ms |`);
    console.log(`| RSS del servidor sin espectadores | ${rssBefore} MB |`);
    console.log(`| RSS con ${VIEWERS} espectadores | ${rssWithViewers} MB |`);
    console.log(`| RSS después de ${ENTRIES} resultados | ${rssAfter} MB |`);
  } finally {
    server?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await database.close();
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
