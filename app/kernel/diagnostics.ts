// What a line of 'Diagnóstico' (/admin/diagnostico) is, and what a probe is: a check a domain
// runs against the real part it depends on (the SMTP server, the object store, the backup
// folder), reported as one line in plain Spanish (docs/decisions/037-diagnostics-and-backup-records.md).
// The types live here so that each domain can offer its probes without importing the app.
import type { Db } from "~/db/client.server";
import type { Config } from "./config.server";

/** bien: nothing to do; aviso: works, but look at it; mal: broken, fix it. */
export type DiagnosticState = "bien" | "aviso" | "mal";

export interface DiagnosticLine {
  key: string;
  title: string;
  state: DiagnosticState;
  /** What the site sees, as facts (label, value). */
  facts: [string, string][];
  /** What is wrong and how to fix it; empty when nothing is. */
  advice: string[];
}

/** What this very request looked like when it reached the server. */
export interface RequestSeen {
  /** The client's address as the site counts it (TRUST_PROXY applied). */
  clientIp: string;
  /** The address of the connection itself (the proxy, behind one). */
  peerIp: string;
  /** http or https, as the site believes (X-Forwarded-Proto from a trusted proxy). */
  protocol: string;
  /** The host name the site believes was asked for (without the port). */
  host: string;
  /** The host and port the site believes were asked for (X-Forwarded-Host from a trusted proxy, else Host). */
  authority: string;
  forwardedFor: string | null;
  forwardedProto: string | null;
  forwardedHost: string | null;
}

/** What every probe is given. */
export interface ProbeContext {
  db: Db;
  config: Config;
  /** The request that asked for the page. */
  seen: RequestSeen;
  now: Date;
}

/**
 * One check of the page. `run` may touch the real part (connect, write, read back), but it must
 * end: the page gives it `timeoutMs` (a few seconds by default) and shows a line that says so if
 * it does not answer in time; a probe that throws becomes a line with the error in words.
 */
export interface DiagnosticProbe {
  key: string;
  title: string;
  timeoutMs?: number;
  run(context: ProbeContext): Promise<DiagnosticLine>;
}

const RANK: Record<DiagnosticState, number> = { bien: 0, aviso: 1, mal: 2 };

/** The worse of two states. */
export function worse(a: DiagnosticState, b: DiagnosticState): DiagnosticState {
  return RANK[b] > RANK[a] ? b : a;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("es-BO", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/** Free space below which a probe warns. */
export const LOW_SPACE_BYTES = 1024 * 1024 * 1024;

/** The file-system errors `folderProblem` says in words of their own. */
export const FOLDER_ERRORS = [
  "ENOTDIR",
  "EEXIST",
  "EACCES",
  "EPERM",
  "ENOENT",
  "EROFS",
  "ENOSPC",
  "EDQUOT",
];

/** A file-system error in words: what it means for `dir` and what to do. */
export function folderProblem(error: unknown, dir: string, variable: string): string {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case "ENOTDIR":
    case "EEXIST":
      return `${variable} apunta a un archivo, no a una carpeta (${dir}, o una parte de esa ruta, es un archivo). Pon en ${variable} la ruta de una carpeta, o quita ese archivo.`;
    case "EACCES":
    case "EPERM":
      return `El sitio no tiene permiso para escribir en ${dir} (${variable}). Dale la carpeta al usuario del servidor (en la imagen, el usuario 10001: chown -R 10001:10001 en el volumen).`;
    case "ENOENT":
      return `La carpeta ${dir} (${variable}) no existe y no se pudo crear. Créala o corrige ${variable}.`;
    case "EROFS":
      return `${dir} (${variable}) está en un disco de solo lectura: nada se puede guardar allí. Monta el volumen con escritura (sin :ro en compose.yaml) o elige otra carpeta.`;
    case "ENOSPC":
      return `El disco de ${dir} (${variable}) está lleno: no cabe ni un archivo pequeño. Libera espacio o agranda el disco.`;
    case "EDQUOT":
      return `Se acabó la cuota de disco del usuario del servidor en ${dir} (${variable}). Libera espacio o sube la cuota.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `No se pudo escribir en ${dir} (${variable}): ${message}. Revisa que sea una carpeta y que el usuario del servidor pueda escribir en ella.`;
}
