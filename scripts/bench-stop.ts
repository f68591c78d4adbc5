// npm run bench:stop — how long `node server.js` with two workers takes to stop after SIGTERM
// with live streams open and requests in flight, BENCH_STOPS times (default 100).
// Needs a PostgreSQL server: DATABASE_URL (or TEST_DATABASE_URL) names one where a database can
// be created; the bench makes a fresh one and drops it. Prints the distribution of stop times
// (from the signal to the primary's exit) and how many stops needed a worker killed.
import { randomBytes } from "node:crypto";
import pg from "pg";
import {
  childrenOf,
  isAlive,
  listening,
  openStreamsAndRequests,
  runServer,
} from "../tests/helpers/server-process";

const STOPS = Number(process.env.BENCH_STOPS ?? 100);
const adminUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error("Falta DATABASE_URL: un servidor PostgreSQL donde crear una base de prueba.");
  process.exit(1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

const name = `ayllu_bench_parada_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;

const times: number[] = [];
let forced = 0;
let leftBehind = 0;
let answered = 0;
try {
  for (let i = 0; i < STOPS; i++) {
    const server = await listening(
      runServer({
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: "2",
        PORT: "0",
        HOST: "127.0.0.1",
        SEED_DEMO: "0",
      }),
      2,
    );
    const workers = childrenOf(server.child.pid!);
    const load = await openStreamsAndRequests(server.url);
    while (load.answered() < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    server.child.kill("SIGTERM");
    const code = await server.exited;
    times.push(performance.now() - started);
    await load.ended;
    answered += load.answered();
    if (code !== 0 || server.output().includes("a la fuerza")) forced++;
    leftBehind += workers.filter(isAlive).length;
    if ((i + 1) % 10 === 0) console.log(`${i + 1}/${STOPS} paradas`);
  }
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

times.sort((a, b) => a - b);
const ms = (value: number) => `${Math.round(value)} ms`;
console.log(
  `\nParadas de un servidor con 2 procesos, 6 canales en vivo y 4 clientes pidiendo páginas:`,
);
console.log(`  paradas:            ${times.length} (${answered} peticiones respondidas en total)`);
console.log(`  mínimo:             ${ms(times[0]!)}`);
console.log(`  mediana:            ${ms(percentile(times, 50))}`);
console.log(`  p90:                ${ms(percentile(times, 90))}`);
console.log(`  p99:                ${ms(percentile(times, 99))}`);
console.log(`  máximo:             ${ms(times.at(-1)!)}`);
console.log(`  con un proceso matado al límite (8 s): ${forced}`);
console.log(`  procesos que quedaron vivos: ${leftBehind}`);
