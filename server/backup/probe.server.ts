// The backups' line of 'Diagnóstico' (docs/decisions/037-diagnostics-and-backup-records.md): the
// folder tried for real (a small file written and removed, as the nightly backup would), its free
// space, and the last copy from backup_runs with its age. Every failure in words, with its fix.
import fs from "node:fs";
import { desc } from "drizzle-orm";
import { backupRuns } from "~/db/schema.server";
import {
  FOLDER_ERRORS,
  folderProblem,
  formatBytes,
  LOW_SPACE_BYTES,
  type DiagnosticProbe,
  type DiagnosticState,
} from "~/kernel/diagnostics";
import { tryWriting } from "~/uploads/diagnostics.server";

/** How long a nightly backup may be missing before the page says so. */
const BACKUP_STALE_MS = 36 * 60 * 60 * 1000;

/** '3 horas', '2 días': how long ago, roughly. */
function age(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours === 1 ? "1 hora" : `${hours} horas`;
  return `${Math.round(hours / 24)} días`;
}

export const backupProbe: DiagnosticProbe = {
  key: "copias",
  title: "Copias de seguridad",
  async run({ db, config, now }) {
    const facts: [string, string][] = [];
    const advice: string[] = [];
    let state: DiagnosticState = "bien";
    const when = (d: Date) =>
      new Intl.DateTimeFormat("es-BO", {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: config.siteTimezone,
      }).format(d);
    if (!config.backups) {
      facts.push(["Copias nocturnas", "no configuradas"]);
      state = "aviso";
      advice.push(
        "El sitio no hace copias de seguridad nocturnas. Pon BACKUP_DIR con una carpeta (compose.yaml usa el volumen de copias), o haz copias con npm run backup.",
      );
    } else {
      const { dir } = config.backups;
      facts.push(["Carpeta", dir]);
      facts.push([
        "Cuándo",
        `cada noche a las ${String(config.backups.hour).padStart(2, "0")}:00; se guardan ${config.backups.keepDaily} diarias y ${config.backups.keepWeekly} semanales`,
      ]);
      const problem = tryWriting(dir);
      const code = (problem as { code?: string } | null)?.code;
      facts.push(["Se puede escribir", problem ? `no${code ? ` (${code})` : ""}` : "sí"]);
      if (problem) {
        state = "mal";
        advice.push(
          `${folderProblem(problem, dir, "BACKUP_DIR")} Mientras tanto la copia nocturna falla.`,
        );
      } else {
        let free: number | null = null;
        try {
          const stats = fs.statfsSync(dir);
          free = stats.bavail * stats.bsize;
        } catch {
          free = null;
        }
        facts.push(["Espacio libre", free === null ? "desconocido" : formatBytes(free)]);
        if (free !== null && free < LOW_SPACE_BYTES) {
          state = "aviso";
          advice.push(
            `Quedan ${formatBytes(free)} libres donde se guardan las copias: la próxima puede no caber. Libera espacio, baja BACKUP_KEEP_DAILY o BACKUP_KEEP_WEEKLY, o agranda el disco.`,
          );
        }
      }
    }
    // The newest backup written whole, and the newest attempt (which may have failed).
    const runs = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(20);
    const good = runs.find((run) => run.bytes !== null);
    const last = runs[0];
    if (good?.finishedAt) {
      facts.push([
        "Última copia",
        `${when(good.finishedAt)} — ${formatBytes(good.bytes ?? 0)} (${good.file})`,
      ]);
      facts.push(["Hace", age(now.getTime() - good.finishedAt.getTime())]);
      facts.push(["En el bucket", good.bucketCopy ?? "no"]);
      if (config.backups && now.getTime() - good.finishedAt.getTime() > BACKUP_STALE_MS) {
        state = "mal";
        advice.push(
          "La última copia tiene más de un día y medio: la copia nocturna no está corriendo. Mira los registros del sitio (./ayllu logs site) y haz una ahora con ./ayllu backup.",
        );
      }
    } else {
      facts.push(["Última copia", "ninguna todavía"]);
      if (config.backups) {
        if (state === "bien") state = "aviso";
        advice.push(
          "Todavía no hay ninguna copia. La primera se hará esta noche; para hacerla ahora: ./ayllu backup.",
        );
      }
    }
    if (last?.error) {
      state = "mal";
      // A file-system error is said in words; anything else as it came.
      const errno = /^(E[A-Z]+):/.exec(last.error)?.[1];
      const words =
        errno && FOLDER_ERRORS.includes(errno) && config.backups
          ? folderProblem({ code: errno }, config.backups.dir, "BACKUP_DIR")
          : last.error;
      advice.push(`La última copia (${when(last.startedAt)}) falló: ${words}`);
      if (words !== last.error) facts.push(["Error de la última copia", last.error]);
    }
    return { key: "copias", title: "Copias de seguridad", state, facts, advice };
  },
};
