// The uploads' lines of 'Diagnóstico': where photos and private files are kept, tried for real
// (the object store: a small object written, read back and deleted; a folder: a file written and
// removed), and the files the database names, checked against the stores.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  folderProblem,
  formatBytes,
  LOW_SPACE_BYTES,
  type DiagnosticLine,
  type DiagnosticProbe,
  type DiagnosticState,
} from "~/kernel/diagnostics";
import { probeObjectStore, STORE_PROBE_MS } from "./object-storage.server";
import { sitePrivateStorage, siteStorage } from "./site-storage.server";
import { checkStoredFiles, listMissing } from "./stored-files.server";

function freeSpace(dir: string): number | null {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** Writes and removes a small file in `dir` (made if missing); the error when it cannot. */
export function tryWriting(dir: string): unknown {
  const probe = path.join(dir, `.diagnostico-${randomUUID()}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    return null;
  } catch (error) {
    return error ?? new Error("sin detalle");
  }
}

export const storageProbe: DiagnosticProbe = {
  key: "almacenamiento",
  title: "Almacenamiento",
  // Both buckets side by side, each request with its own limit.
  timeoutMs: 3 * STORE_PROBE_MS + 2_000,
  async run({ config }) {
    const facts: [string, string][] = [];
    const advice: string[] = [];
    let state: DiagnosticState = "bien";
    const store = config.objectStore;
    if (store) {
      facts.push([
        "Fotos",
        `bucket ${store.bucket}${store.endpoint ? ` en ${store.endpoint}` : " (AWS S3)"}`,
      ]);
      facts.push([
        "Archivos privados",
        store.privateBucket ? `bucket ${store.privateBucket}` : `${store.bucket}/privado/`,
      ]);
      const outcomes = await probeObjectStore(store);
      for (const outcome of outcomes) {
        facts.push([
          `Escribir, leer y borrar en ${outcome.bucket}`,
          outcome.problem ? `falló${outcome.code ? ` (${outcome.code})` : ""}` : "sí",
        ]);
        if (outcome.problem) {
          state = "mal";
          if (!advice.includes(outcome.problem)) advice.push(outcome.problem);
        }
      }
    } else {
      facts.push(["Fotos", `carpeta ${config.uploadsDir}`]);
      const problem = tryWriting(config.uploadsDir);
      facts.push(["Se puede escribir", problem ? "no" : "sí"]);
      if (problem) {
        state = "mal";
        advice.push(
          `${folderProblem(problem, config.uploadsDir, "UPLOADS_DIR")} Mientras tanto las fotos no se guardarán.`,
        );
      }
    }
    const dataProblem = tryWriting(config.dataDir);
    facts.push([
      "Carpeta de datos",
      `${config.dataDir}${dataProblem ? " (no se puede escribir)" : ""}`,
    ]);
    if (dataProblem) {
      state = "mal";
      advice.push(folderProblem(dataProblem, config.dataDir, "DATA_DIR"));
    }
    const free = freeSpace(store ? config.dataDir : config.uploadsDir);
    facts.push(["Espacio libre", free === null ? "desconocido" : formatBytes(free)]);
    if (free !== null && free < LOW_SPACE_BYTES) {
      if (state === "bien") state = "aviso";
      advice.push(
        `Quedan ${formatBytes(free)} libres en el disco: con menos de 1 GB las fotos y las copias de seguridad pueden dejar de guardarse. Libera espacio o agranda el disco.`,
      );
    }
    return { key: "almacenamiento", title: "Almacenamiento", state, facts, advice };
  },
};

/**
 * The check a backup makes (decision 062): every file a row names, against the stores. One query
 * and one listing per store, so it runs at each visit.
 */
export const namedFilesProbe: DiagnosticProbe = {
  key: "archivos",
  title: "Archivos que nombra la base de datos",
  async run({ db, config }): Promise<DiagnosticLine> {
    const { key, title } = namedFilesProbe;
    const uploads = siteStorage(config);
    const privateFiles = sitePrivateStorage(config);
    const facts: [string, string][] = [
      ["Fotos", uploads.location],
      ["Archivos privados", privateFiles.location],
    ];
    let check;
    try {
      check = await checkStoredFiles(db, { uploads, privateFiles });
    } catch (error) {
      return {
        key,
        title,
        state: "mal",
        facts,
        advice: [
          `No se pudo comprobar el almacén: ${error instanceof Error ? error.message : String(error)}. Las copias de seguridad fallarán igual hasta que responda.`,
        ],
      };
    }
    facts.push(["Nombrados", String(check.named)], ["Faltan", String(check.missing.length)]);
    if (check.missing.length === 0) return { key, title, state: "bien", facts, advice: [] };
    return {
      key,
      title,
      state: "mal",
      facts,
      advice: [
        `Faltan en el almacén: ${listMissing(check.missing)}. Las copias de seguridad fallan mientras falten (o, pedido expresamente con --permitir-faltantes o BACKUP_ALLOW_MISSING=1, se hacen sin ellos y los listan). Si el sitio se movió de carpeta o de bucket, revisa UPLOADS_DIR, PRIVATE_DIR y S3_*; si no, restaura esos archivos desde una copia anterior.`,
      ],
    };
  },
};
