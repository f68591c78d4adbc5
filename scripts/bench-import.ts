// npm run bench:import — how long `npm run import` takes for a community of 10,000 members
// (with their Firebase Auth accounts), 5,000 events and 20,000 participations, on a fresh embedded
// database and, with DATABASE_URL, on a fresh database of that PostgreSQL server (dropped
// afterwards). Prints reading, import and re-import times, and the process's peak memory.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";
import { importFirebase } from "../server/import/import.server";
import { readExportFiles } from "../server/import/read-export.server";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const PARTICIPATIONS = Number(process.env.BENCH_PARTICIPATIONS ?? 20_000);
const TZ = "America/La_Paz";

function writeExport(dir: string): string[] {
  const ts = (s: number) => ({ _seconds: s, _nanoseconds: 0 });
  const usuarios: Record<string, unknown> = {};
  const authUsers: unknown[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const uid = `u${i}`;
    usuarios[uid] = {
      uid,
      email: `miembro${i}@example.com`,
      displayName: `Miembro ${i}`,
      createdAt: ts(1_600_000_000 + i * 60),
      isAdmin: i === 0,
      nombreCompleto: `Miembro Número ${i}`,
      fechaNacimiento: `19${70 + (i % 30)}-0${1 + (i % 9)}-1${i % 9}`,
      pais: "Bolivia",
      ciudad: ["La Paz", "El Alto", "Cochabamba"][i % 3],
      genero: ["Masculino", "Femenino", "Otro"][i % 3],
      habilidades: i % 2 ? "Robótica" : "",
    };
    authUsers.push({
      localId: uid,
      email: `miembro${i}@example.com`,
      emailVerified: true,
      createdAt: String((1_600_000_000 + i * 60) * 1000),
      providerUserInfo: [
        { providerId: "google.com", rawId: String(100_000_000_000_000_000n + BigInt(i)) },
      ],
    });
  }
  const eventos: Record<string, unknown> = {};
  for (let i = 0; i < EVENTS; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    eventos[`e${i}`] = {
      nombreEvento: `Evento ${i}`,
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: i % 3 === 0 ? "Virtual" : "Presencial",
      enlacesVirtuales: i % 3 === 0 ? [`https://meet.example.com/${i}`] : [],
      fechaEvento: day,
      horaEvento: "18:30",
      imagenEnlace: `https://images.example.com/${i}.jpg`,
      descripcion: `Descripción del evento ${i}.`,
      galleryImages: [
        `https://images.example.com/${i}-a.jpg`,
        `https://images.example.com/${i}-b.jpg`,
      ],
      createdAt: ts(1_577_000_000 + i * 3600),
      publishedBy: "u0",
      publishedByName: "Miembro 0",
    };
  }
  const participations: Record<string, { events: string[] }> = {};
  for (let p = 0; p < PARTICIPATIONS; p++) {
    const uid = `u${p % MEMBERS}`;
    const list = (participations[uid] ??= { events: [] }).events;
    // A different event for each round over the members, so that no pair repeats.
    list.push(`e${(p * 7919 + Math.floor(p / MEMBERS)) % EVENTS}`);
  }
  const firestore = path.join(dir, "firestore.json");
  fs.writeFileSync(firestore, JSON.stringify({ usuarios, eventos, participations }));
  const auth = path.join(dir, "users.json");
  fs.writeFileSync(auth, JSON.stringify({ users: authUsers }));
  return [auth, firestore];
}

async function freshPostgres(
  url: string,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const name = `ayllu_bench_import_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString());
  return {
    database,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

let peakRss = 0;
const phaseLines: string[] = [];
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

async function measure(label: string, database: Database, files: string[]) {
  let start = performance.now();
  const data = await readExportFiles(files);
  const readMs = performance.now() - start;
  start = performance.now();
  const cpu = process.cpuUsage();
  const phases = new Map<string, number>();
  const report = await importFirebase(database.db, data, {
    timeZone: TZ,
    onProgress: (p) => phases.set(p.collection, performance.now() - start),
  });
  const importMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  start = performance.now();
  const again = await importFirebase(database.db, await readExportFiles(files), { timeZone: TZ });
  const reimportMs = performance.now() - start;
  const c = (name: string) => report.collections.get(name)!;
  const changed = [...again.collections.values()].reduce((n, x) => n + x.imported + x.updated, 0);
  console.log(
    `| ${label} | ${(readMs / 1000).toFixed(1)} s | ${(importMs / 1000).toFixed(1)} s | ${(cpuMs / 1000).toFixed(1)} s | ${(reimportMs / 1000).toFixed(1)} s | ${c("usuarios").imported} / ${c("eventos").imported} / ${c("participations").imported} | ${changed} |`,
  );
  // When each collection's last batch was written, from the start of the import.
  phaseLines.push(
    `${label}: ${[...phases].map(([name, ms]) => `${name} hasta ${(ms / 1000).toFixed(1)} s`).join(", ")}`,
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-import-"));
  try {
    const files = writeExport(dir);
    const size = files.reduce((n, f) => n + fs.statSync(f).size, 0);
    console.log(
      `${MEMBERS} miembros (con cuenta de Auth), ${EVENTS} eventos (2 imágenes cada uno), ${PARTICIPATIONS} participaciones; ${(size / 1e6).toFixed(1)} MB de JSON. Node ${process.version}, ${os.cpus().length} núcleos.\n`,
    );
    console.log(
      "| Base de datos | Leer JSON | Importar | CPU de este proceso al importar | Reimportar (sin cambios) | Importados (miembros / eventos / participaciones) | Cambiados al reimportar |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    const embedded = await openEmbedded(path.join(dir, "data"));
    try {
      await measure("embebida (PGlite)", embedded, files);
    } finally {
      await embedded.close();
    }
    if (process.env.DATABASE_URL) {
      const { database, drop } = await freshPostgres(process.env.DATABASE_URL);
      try {
        await measure("PostgreSQL", database, files);
      } finally {
        await drop();
      }
    }
    console.log(`\n${phaseLines.join("\n")}`);
    console.log(`\nMemoria máxima del proceso: ${Math.round(peakRss / 1e6)} MB`);
  } finally {
    clearInterval(sampler);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
