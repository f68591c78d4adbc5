// npm run bench:stored-files — what the check of the files the database names costs (decision 062),
// as a backup and each visit to Diagnóstico make it: BENCH_FILES (default 1000) payments with a
// receipt in a private folder and as many members with an uploaded photo (three widths each) in a
// photos folder, then the check (one catalogue query, one listing per folder), median of 7 runs.
// On a fresh embedded database, and with DATABASE_URL on a fresh PostgreSQL database (dropped
// afterwards).
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";
import { events } from "../app/db/schema.server";
import { uploadStorage } from "../app/uploads/folder-storage.server";
import { privateFolderStorage } from "../app/uploads/private-storage.server";
import { checkStoredFiles } from "../app/uploads/stored-files.server";

const FILES = Number(process.env.BENCH_FILES ?? 1000);

async function database(label: string, database: Database) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-archivos-"));
  try {
    const uploadsDir = path.join(dir, "subidas");
    const privateDir = path.join(dir, "privado");
    fs.mkdirSync(uploadsDir);
    fs.mkdirSync(privateDir);
    const [event] = await database.db
      .insert(events)
      .values({
        nombreEvento: "Banco de pruebas",
        descripcion: "",
        fechaEvento: "2030-01-01",
        horaEvento: "10:00",
        startsAt: new Date("2030-01-01T14:00:00Z"),
        endsAt: new Date("2030-01-01T16:00:00Z"),
        ubicacionEvento: "La Paz",
        imagenEnlace: "https://example.com/a.png",
        publishedByName: "Banco",
        priceCents: 3000,
      })
      .returning();
    for (let i = 0; i < FILES; i++) {
      const hash = randomBytes(16).toString("hex");
      const receipt = `${randomBytes(16).toString("hex")}.pdf`;
      fs.writeFileSync(path.join(privateDir, receipt), "%PDF-1.4\n%%EOF\n");
      for (const w of [320, 640, 1280])
        fs.writeFileSync(path.join(uploadsDir, `${hash}-${w}.webp`), "x");
      const id = randomUUID();
      await database.db.execute(sql`
        insert into users (id, issuer, subject, email, nombre_completo, own_photo_url)
        values (${id}, 'https://bench.invalid', ${id}, ${`${id}@example.com`}, 'Socia', ${`/imagenes/${hash}-1280.webp`})`);
      await database.db.execute(sql`
        insert into payments (event_id, user_id, amount_cents, status, receipt_file)
        values (${event!.id}, ${id}, 3000, 'submitted', ${receipt})`);
    }
    const stores = {
      uploads: uploadStorage(uploadsDir),
      privateFiles: privateFolderStorage(privateDir),
    };
    const times: number[] = [];
    let named = 0;
    for (let run = 0; run < 7; run++) {
      const start = performance.now();
      const check = await checkStoredFiles(database.db, stores);
      times.push(performance.now() - start);
      named = check.named;
      if (check.missing.length > 0) throw new Error(`faltan ${check.missing.length}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: ${named} archivos nombrados (${FILES} recibos, ${FILES} fotos × 3 anchos): comprobación ${times[3]!.toFixed(1)} ms (mediana de 7; mín ${times[0]!.toFixed(1)}, máx ${times[6]!.toFixed(1)})`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const embedded = await openEmbedded(null);
  try {
    await database("Base embebida (PGlite, en memoria)", embedded);
  } finally {
    await embedded.close();
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `ayllu_bench_archivos_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const postgres = await openPostgres(target.toString());
    try {
      await database("PostgreSQL", postgres);
    } finally {
      await postgres.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
