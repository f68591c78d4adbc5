// 'Diagnóstico' (/admin/diagnostico): what the running site believes about itself, each line
// with what is wrong and how to fix it in plain Spanish (docs/decisions/037-diagnostics-and-backup-records.md).
// Every fact is read at the moment the page is asked for: this request's addresses and headers,
// the database, the storage, the outbox, the backups' record.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { desc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { appliedMigrations, newestKnownMigration } from "~/db/client.server";
import { claimJobRun } from "~/db/jobs.server";
import { rowsOf } from "~/db/rows.server";
import { backupRuns, type User } from "~/db/schema.server";
import type { Config } from "~/kernel/config.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { smtpTransport } from "~/mail/worker.server";
import { assertAdmin } from "~/kernel/permissions";
import { sitePrivateStorage, siteStorage } from "~/uploads/site-storage.server";
import { checkStoredFiles, listMissing } from "~/uploads/stored-files.server";

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

/** How long a nightly backup may be missing before the page says so. */
const BACKUP_STALE_MS = 36 * 60 * 60 * 1000;
/** Free space below which the page warns. */
const LOW_SPACE_BYTES = 1024 * 1024 * 1024;
/** Test mails an admin may send: one a minute, across every process. */
export const TEST_MAIL_EVERY_MS = 60_000;

function siteVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "desconocida";
  } catch {
    return "desconocida";
  }
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

function trustProxyText(value: Config["trustProxy"]): string {
  if (value === false) return "0 (ningún proxy)";
  if (typeof value === "number")
    return `${value} (${value === 1 ? "un proxy" : `${value} proxies`})`;
  return value.join(", ");
}

function isPrivate(ip: string): boolean {
  const v4 = ip.replace(/^::ffff:/, "");
  return (
    v4 === "::1" ||
    /^127\./.test(v4) ||
    /^10\./.test(v4) ||
    /^192\.168\./.test(v4) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(v4) ||
    /^f[cd][0-9a-f]{2}:/i.test(v4)
  );
}

function versionLine(): DiagnosticLine {
  const node = process.versions.node;
  const major = Number(node.split(".")[0]);
  const commit = process.env.AYLLU_COMMIT;
  const advice =
    major < 22
      ? [
          `Node ${node} ya no recibe correcciones de seguridad (Node 20 llegó al fin de su vida en abril de 2026). Usa la imagen de Ayllu (Node 24) o instala Node 24.`,
        ]
      : [];
  return {
    key: "version",
    title: "Versión",
    state: advice.length ? "aviso" : "bien",
    facts: [
      ["Ayllu", commit ? `${siteVersion()} (${commit})` : siteVersion()],
      ["Node.js", node],
    ],
    advice,
  };
}

function addressLine(config: Config, seen: RequestSeen): DiagnosticLine {
  const advice: string[] = [];
  let state: DiagnosticState = "bien";
  const believed = config.publicUrl;
  const askedHost = seen.host;
  if (askedHost && askedHost.toLowerCase() !== believed.hostname.toLowerCase()) {
    state = "mal";
    advice.push(
      `Esta página se pidió a ${seen.authority}, pero el sitio cree que su dirección es ${believed.origin}: los enlaces de los correos y el inicio de sesión irán allí. Pon PUBLIC_URL=${seen.protocol}://${seen.authority} (o entra por ${believed.origin}).`,
    );
  }
  if (`${seen.protocol}:` !== believed.protocol) {
    state = "mal";
    advice.push(
      `Esta petición llegó por ${seen.protocol}, pero PUBLIC_URL es ${believed.protocol.replace(":", "")}. ` +
        (seen.protocol === "http" && believed.protocol === "https:"
          ? "Detrás de un proxy con HTTPS, TRUST_PROXY debe contar ese proxy para que el sitio vea X-Forwarded-Proto."
          : "Corrige PUBLIC_URL."),
    );
  }
  if (config.production && believed.protocol !== "https:") {
    if (state === "bien") state = "aviso";
    advice.push(
      "El sitio no usa HTTPS: las sesiones viajan sin cifrar. Sírvelo detrás de Caddy (compose.yaml lo hace) con PUBLIC_URL=https://…",
    );
  }
  return {
    key: "direccion",
    title: "Dirección pública",
    state,
    facts: [
      ["PUBLIC_URL", believed.origin],
      ["Esta petición", `${seen.protocol}://${seen.authority}`],
    ],
    advice,
  };
}

function proxyLine(config: Config, seen: RequestSeen): DiagnosticLine {
  const advice: string[] = [];
  let state: DiagnosticState = "bien";
  if (seen.forwardedFor && config.trustProxy === false) {
    state = "mal";
    advice.push(
      "Hay un proxy delante (la petición trae X-Forwarded-For) pero TRUST_PROXY=0: el sitio cuenta a todos los visitantes como la dirección del proxy. Pon TRUST_PROXY=1 (un proxy, como Caddy o nginx en la misma máquina).",
    );
  } else if (!seen.forwardedFor && config.trustProxy !== false) {
    state = "aviso";
    advice.push(
      `TRUST_PROXY es ${trustProxyText(config.trustProxy)}, pero esta petición no trae X-Forwarded-For: o no hay un proxy delante (entonces pon TRUST_PROXY=0, o un cliente podría elegir su dirección), o el proxy no agrega la cabecera.`,
    );
  } else if (seen.forwardedFor) {
    const hops = seen.forwardedFor.split(",").length;
    if (isPrivate(seen.clientIp) && hops > 1) {
      state = "aviso";
      advice.push(
        `La dirección del cliente (${seen.clientIp}) es privada y X-Forwarded-For tiene ${hops} saltos: puede que haya más proxies que los que cuenta TRUST_PROXY (${trustProxyText(config.trustProxy)}). Súbelo en uno por cada proxy delante.`,
      );
    }
  }
  return {
    key: "proxy",
    title: "Tu conexión y el proxy",
    state,
    facts: [
      ["Tu dirección según el sitio", seen.clientIp || "—"],
      ["Conexión desde", seen.peerIp || "—"],
      ["X-Forwarded-For", seen.forwardedFor ?? "(no llegó)"],
      ["X-Forwarded-Proto", seen.forwardedProto ?? "(no llegó)"],
      ["X-Forwarded-Host", seen.forwardedHost ?? "(no llegó)"],
      ["TRUST_PROXY", trustProxyText(config.trustProxy)],
    ],
    advice,
  };
}

function signInLine(config: Config): DiagnosticLine {
  const redirect = new URL("/auth/callback", config.publicUrl).href;
  const oidc = config.oidc;
  if (oidc.kind === "external")
    return {
      key: "inicio",
      title: "Inicio de sesión",
      state: "bien",
      facts: [
        ["Proveedor", `${oidc.name} (${oidc.issuer})`],
        ["URI de redirección", redirect],
        ["Enlaces por correo", config.emailLinks.enabled ? "sí" : "no (sin SMTP)"],
      ],
      advice: [
        `En la consola del proveedor (Google: APIs & Services → Credentials → tu cliente OAuth), el URI de redirección autorizado debe ser exactamente ${redirect}.`,
      ],
    };
  if (oidc.kind === "none")
    return {
      key: "inicio",
      title: "Inicio de sesión",
      state: "aviso",
      facts: [
        ["Proveedor", "ninguno"],
        ["Enlaces por correo", "sí"],
      ],
      advice: [
        `Solo se entra con enlaces por correo. Para ofrecer Google, crea un cliente OAuth con el URI de redirección ${redirect} y pon GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET.`,
      ],
    };
  return {
    key: "inicio",
    title: "Inicio de sesión",
    state: config.production ? "mal" : "aviso",
    facts: [
      ["Proveedor", "de desarrollo (cualquiera entra con cualquier correo)"],
      ["URI de redirección", redirect],
    ],
    advice: [
      `Es el proveedor de desarrollo. Para un sitio real configura Google (URI de redirección ${redirect}) u otro proveedor OpenID Connect.`,
    ],
  };
}

async function mailLine(db: Db, config: Config): Promise<DiagnosticLine> {
  const [outbox] = rowsOf<{ pending: number; failed: number; last_error: string | null }>(
    await db.execute(sql`
      select
        count(*) filter (where status in ('pending', 'sending'))::int as pending,
        count(*) filter (where status = 'failed')::int as failed,
        (select last_error from mail_outbox where last_error is not null
          order by coalesce(sent_at, next_attempt_at) desc limit 1) as last_error
      from mail_outbox`),
  );
  const pending = outbox?.pending ?? 0;
  const failed = outbox?.failed ?? 0;
  const facts: [string, string][] = [];
  const advice: string[] = [];
  let state: DiagnosticState = "bien";
  const transport = config.mail.transport;
  if (transport.kind === "smtp") {
    const server = new URL(transport.url);
    facts.push([
      "Servidor SMTP",
      `${server.protocol}//${server.hostname}:${server.port || "(puerto por defecto)"}`,
    ]);
  } else if (transport.kind === "mailbox") {
    facts.push(["Servidor SMTP", "ninguno: buzón de desarrollo (/__dev/correo)"]);
    state = "aviso";
    advice.push(
      "Los correos no salen: quedan en el buzón de desarrollo. Pon SMTP_URL para enviarlos.",
    );
  } else {
    facts.push(["Servidor SMTP", "ninguno"]);
    state = "mal";
    advice.push(
      "Sin SMTP_URL no sale ningún correo (recordatorios, mensajes, enlaces de inicio de sesión). Pon SMTP_URL=smtp://usuario:clave@servidor:587.",
    );
  }
  facts.push(["Remitente", config.mail.from]);
  facts.push(["Correos en cola", String(pending)]);
  facts.push(["Correos que no se pudieron enviar", String(failed)]);
  facts.push(["Último error", outbox?.last_error ?? "ninguno"]);
  if (pending > 50 && state === "bien") {
    state = "aviso";
    advice.push(
      `Hay ${pending} correos esperando: el servidor SMTP los acepta despacio o los rechaza. Mira el último error y prueba con 'Enviar correo de prueba'.`,
    );
  }
  if (failed > 0 && state === "bien") {
    state = "aviso";
    advice.push(
      `${failed} correos se dieron por perdidos tras varios intentos. El último error dice por qué; suele ser la clave de SMTP o un remitente (MAIL_FROM) que el servidor no acepta.`,
    );
  }
  return { key: "correo", title: "Correo", state, facts, advice };
}

function freeSpace(dir: string): number | null {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

function folderWritable(dir: string): boolean {
  const probe = path.join(dir, `.diagnostico-${randomUUID()}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    return true;
  } catch {
    return false;
  }
}

function storageLine(config: Config): DiagnosticLine {
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
  } else {
    facts.push(["Fotos", `carpeta ${config.uploadsDir}`]);
    const writable = folderWritable(config.uploadsDir);
    facts.push(["Se puede escribir", writable ? "sí" : "no"]);
    if (!writable) {
      state = "mal";
      advice.push(
        `El sitio no puede escribir en ${config.uploadsDir}: las fotos no se guardarán. Dale la carpeta al usuario del servidor (en la imagen, el usuario 10001: chown -R 10001:10001 en el volumen /data).`,
      );
    }
  }
  const dataWritable = folderWritable(config.dataDir);
  facts.push([
    "Carpeta de datos",
    `${config.dataDir}${dataWritable ? "" : " (no se puede escribir)"}`,
  ]);
  if (!dataWritable) {
    state = "mal";
    advice.push(
      `El sitio no puede escribir en ${config.dataDir} (DATA_DIR). Revisa el dueño y los permisos del volumen.`,
    );
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
}

async function backupLine(
  db: Db,
  config: Config,
  now: Date,
  timeZone: string,
): Promise<DiagnosticLine> {
  const facts: [string, string][] = [];
  const advice: string[] = [];
  let state: DiagnosticState = "bien";
  const when = (d: Date) =>
    new Intl.DateTimeFormat("es-BO", { dateStyle: "medium", timeStyle: "short", timeZone }).format(
      d,
    );
  if (!config.backups) {
    facts.push(["Copias nocturnas", "no configuradas"]);
    state = "aviso";
    advice.push(
      "El sitio no hace copias de seguridad nocturnas. Pon BACKUP_DIR con una carpeta (compose.yaml usa el volumen de copias), o haz copias con npm run backup.",
    );
  } else {
    facts.push(["Carpeta", config.backups.dir]);
    facts.push([
      "Cuándo",
      `cada noche a las ${String(config.backups.hour).padStart(2, "0")}:00; se guardan ${config.backups.keepDaily} diarias y ${config.backups.keepWeekly} semanales`,
    ]);
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
    advice.push(`La última copia (${when(last.startedAt)}) falló: ${last.error}`);
  }
  return { key: "copias", title: "Copias de seguridad", state, facts, advice };
}

/**
 * The check a backup makes (decision 062): every file a row names, against the stores. One query
 * and one listing per store, so it runs at each visit.
 */
async function namedFilesLine(db: Db, config: Config): Promise<DiagnosticLine> {
  const key = "archivos";
  const title = "Archivos que nombra la base de datos";
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
}

async function databaseLine(db: Db, config: Config): Promise<DiagnosticLine> {
  const [version] = rowsOf<{ server_version: string }>(await db.execute(sql`show server_version`));
  const applied = await appliedMigrations(async (text) => ({
    rows: rowsOf(await db.execute(sql.raw(text))),
  }));
  const known = newestKnownMigration();
  const facts: [string, string][] = [
    [
      "Tipo",
      config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embebida (PGlite en ${config.dataDir})`,
    ],
    ["Versión de PostgreSQL", version?.server_version ?? "desconocida"],
    [
      "Migraciones",
      `${applied?.count ?? 0} aplicadas; la última que conoce esta versión es ${known.tag}`,
    ],
  ];
  const advice: string[] = [];
  let state: DiagnosticState = "bien";
  if (config.production && !config.databaseUrl) {
    state = "aviso";
    advice.push(
      "Sitio pequeño: la base de datos embebida corre en un solo proceso. Para más tráfico o varias máquinas, pásate a PostgreSQL (npm run backup y restore, mira docs/produccion.md).",
    );
  }
  return { key: "base", title: "Base de datos", state, facts, advice };
}

function workersLine(config: Config): DiagnosticLine {
  return {
    key: "procesos",
    title: "Procesos",
    state: "bien",
    facts: [
      ["Procesos del servidor (WEB_CONCURRENCY)", String(config.webConcurrency)],
      [
        "Esta página la respondió",
        cluster.isWorker ? `el proceso ${process.pid}` : `el proceso ${process.pid} (único)`,
      ],
    ],
    advice: [],
  };
}

/** Every line of the page, for `admin` (anyone else is refused). */
export async function diagnose(
  db: Db,
  config: Config,
  admin: Pick<User, "isAdmin">,
  seen: RequestSeen,
  now: Date,
): Promise<DiagnosticLine[]> {
  assertAdmin(admin);
  return [
    versionLine(),
    addressLine(config, seen),
    proxyLine(config, seen),
    signInLine(config),
    await mailLine(db, config),
    storageLine(config),
    await backupLine(db, config, now, config.siteTimezone),
    await namedFilesLine(db, config),
    await databaseLine(db, config),
    workersLine(config),
  ];
}

export type TestMailResult =
  { ok: true; to: string } | { ok: false; message: string; status: number };

/**
 * 'Enviar correo de prueba': one mail through SMTP, now, to the admin's own address, so the
 * answer of the SMTP server shows on the page. One a minute per admin, across processes.
 */
export async function sendTestMail(
  db: Db,
  config: Config,
  admin: Pick<User, "id" | "email" | "isAdmin">,
): Promise<TestMailResult> {
  assertAdmin(admin);
  const transport = config.mail.transport;
  if (transport.kind !== "smtp")
    return {
      ok: false,
      status: 409,
      message:
        "No hay servidor SMTP configurado (SMTP_URL): no hay adónde enviar el correo de prueba.",
    };
  if (!(await claimJobRun(db, `correo-de-prueba:${admin.id}`, TEST_MAIL_EVERY_MS)))
    return {
      ok: false,
      status: 429,
      message:
        "Ya enviaste un correo de prueba hace menos de un minuto. Espera un momento y vuelve a intentarlo.",
    };
  const smtp = smtpTransport(transport.url);
  try {
    await smtp.send({
      from: config.mail.from,
      to: admin.email,
      subject: "Correo de prueba de Ayllu",
      text:
        `Este correo lo pediste en Diagnóstico (${new URL("/admin/diagnostico", config.publicUrl).href}).\n\n` +
        "Si te llegó, el correo del sitio funciona: los recordatorios, los mensajes y los enlaces de inicio de sesión también llegarán.",
    });
    return { ok: true, to: admin.email };
  } catch (error) {
    return {
      ok: false,
      status: 502,
      message: `El servidor SMTP no aceptó el correo: ${error instanceof Error ? error.message : String(error)}. Revisa SMTP_URL (servidor, puerto, usuario y clave) y MAIL_FROM.`,
    };
  } finally {
    smtp.close();
  }
}
