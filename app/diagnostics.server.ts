// 'Diagnóstico' (/admin/diagnostico): what the running site believes about itself, each line
// with what is wrong and how to fix it in plain Spanish (docs/decisions/037-diagnostics-and-backup-records.md).
// Every line is a probe (app/kernel/diagnostics.ts), run at the moment the page is asked for, side
// by side and each within its own time: this request's addresses and headers, the site reached
// through its public address, the SMTP server greeted, the stores written and read back, the
// database. The domains export their own probes (mail, uploads); the host adds the backups'.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { appliedMigrations, newestKnownMigration } from "~/db/client.server";
import { claimJobRun } from "~/db/jobs.server";
import { rowsOf } from "~/db/rows.server";
import type { User } from "~/db/schema.server";
import type { Config } from "~/kernel/config.server";
import {
  worse,
  type DiagnosticLine,
  type DiagnosticProbe,
  type DiagnosticState,
  type ProbeContext,
  type RequestSeen,
} from "~/kernel/diagnostics";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { ECHO_HEADER, siteEcho } from "~/kernel/site-echo.server";
import { mailProbe } from "~/mail/diagnostics.server";
import { smtpTransport } from "~/mail/worker.server";
import { assertAdmin } from "~/kernel/permissions";
import { namedFilesProbe, storageProbe } from "~/uploads/diagnostics.server";

export type { DiagnosticLine, DiagnosticProbe, DiagnosticState, RequestSeen };

/** How long a probe may take before its line says it did not answer (its own `timeoutMs` wins). */
export const PROBE_TIMEOUT_MS = 5_000;
/** How long the site waits for itself through PUBLIC_URL. */
export const SELF_FETCH_MS = 4_000;
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

/** Why a fetch of the site's own address failed, in words. */
function unreachableReason(error: unknown): { words: string; code: string } {
  const e = (error ?? {}) as { name?: string; message?: string; cause?: unknown };
  const cause = (e.cause ?? {}) as { code?: string; message?: string };
  const code = cause.code ?? (e.name === "TimeoutError" ? "tiempo agotado" : (e.name ?? "error"));
  const text = `${code} ${cause.message ?? ""} ${e.message ?? ""}`;
  if (e.name === "TimeoutError" || /TIMEOUT|ETIMEDOUT/i.test(text))
    return { code, words: `no respondió en ${SELF_FETCH_MS / 1000} segundos` };
  if (/ECONNREFUSED/.test(text))
    return { code, words: "nadie responde en ese puerto (la conexión fue rechazada)" };
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return { code, words: "el nombre no existe en el DNS" };
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(text))
    return { code, words: "el certificado HTTPS no es válido para ese nombre" };
  if (/EHOSTUNREACH|ENETUNREACH/.test(text))
    return { code, words: "no hay camino de red hasta allí" };
  return { code, words: cause.message ?? e.message ?? String(error) };
}

/**
 * The public address, from the server itself: /healthz fetched through PUBLIC_URL must answer the
 * challenge with this site's key (kernel/site-echo). Not reaching it is a warning, not a fault:
 * some networks do not let a server reach its own public address, while visitors do.
 */
async function reachItself(
  config: Config,
): Promise<Pick<DiagnosticLine, "state" | "facts" | "advice">> {
  const target = new URL("/healthz", config.publicUrl);
  const origin = config.publicUrl.origin;
  const challenge = randomBytes(12).toString("base64url");
  const hint =
    "Si desde tu teléfono (con datos, fuera de esta red) sí entras, puede ser la red del proveedor, que no deja que un servidor se llame a sí mismo por su dirección pública; si tampoco, revisa el DNS, el proxy (Caddy) y el firewall (puertos 80 y 443).";
  let response: Response;
  try {
    response = await fetch(target, {
      headers: { [ECHO_HEADER]: challenge },
      redirect: "manual",
      signal: AbortSignal.timeout(SELF_FETCH_MS),
    });
    await response.body?.cancel();
  } catch (error) {
    const reason = unreachableReason(error);
    return {
      state: "aviso",
      facts: [["Desde el propio servidor", `no se llega (${reason.code})`]],
      advice: [`Desde el propio servidor no se llega a ${origin}: ${reason.words}. ${hint}`],
    };
  }
  if (response.headers.get(ECHO_HEADER) === siteEcho(config.sessionSecret, challenge))
    return {
      state: "bien",
      facts: [["Desde el propio servidor", `${origin} responde, y es este sitio`]],
      advice: [],
    };
  const redirect = response.headers.get("location");
  return {
    state: "aviso",
    facts: [["Desde el propio servidor", `responde otro servidor (${response.status})`]],
    advice: [
      redirect
        ? `Desde el propio servidor, ${origin} redirige a ${redirect} en vez de responder este sitio. Si PUBLIC_URL debe ser esa otra dirección, cámbiala; si no, revisa la configuración del proxy.`
        : `Desde el propio servidor, en ${origin} responde otro servidor (código ${response.status}), no este sitio. Revisa que el DNS de ${config.publicUrl.hostname} apunte a este servidor y que el proxy (Caddy) pase las peticiones a Ayllu. ${hint}`,
    ],
  };
}

/** Lines that need only what the site knows of itself, as probes. */
const versionProbe: DiagnosticProbe = {
  key: "version",
  title: "Versión",
  run: async () => versionLine(),
};

const addressProbe: DiagnosticProbe = {
  key: "direccion",
  title: "Dirección pública",
  timeoutMs: SELF_FETCH_MS + 2_000,
  async run({ config, seen }) {
    const line = addressLine(config, seen);
    const reach = await reachItself(config);
    return {
      ...line,
      state: worse(line.state, reach.state),
      facts: [...line.facts, ...reach.facts],
      advice: [...line.advice, ...reach.advice],
    };
  },
};

const proxyProbe: DiagnosticProbe = {
  key: "proxy",
  title: "Tu conexión y el proxy",
  run: async ({ config, seen }) => proxyLine(config, seen),
};

const signInProbe: DiagnosticProbe = {
  key: "inicio",
  title: "Inicio de sesión",
  run: async ({ config }) => signInLine(config),
};

const databaseProbe: DiagnosticProbe = {
  key: "base",
  title: "Base de datos",
  run: ({ db, config }) => databaseLine(db, config),
};

const workersProbe: DiagnosticProbe = {
  key: "procesos",
  title: "Procesos",
  run: async ({ config }) => workersLine(config),
};

/**
 * The page's probes, in the page's order; `hostProbes` (the host's own parts, such as the backups'
 * folder) go after the storage.
 */
export function diagnosticProbes(hostProbes: DiagnosticProbe[] = []): DiagnosticProbe[] {
  return [
    versionProbe,
    addressProbe,
    proxyProbe,
    signInProbe,
    mailProbe,
    storageProbe,
    ...hostProbes,
    namedFilesProbe,
    databaseProbe,
    workersProbe,
  ];
}

/** One probe, within its time: a probe that throws or does not answer becomes a line that says so. */
async function runProbe(probe: DiagnosticProbe, context: ProbeContext): Promise<DiagnosticLine> {
  const { key, title } = probe;
  const limit = probe.timeoutMs ?? PROBE_TIMEOUT_MS;
  const seconds = (limit / 1000).toLocaleString("es-BO");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DiagnosticLine>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          key,
          title,
          state: "mal",
          facts: [["Comprobación", `sin respuesta en ${seconds} segundos`]],
          advice: [
            `La comprobación de «${title}» no terminó en ${seconds} segundos: lo que revisa no responde o responde muy despacio. Vuelve a cargar la página; si se repite, mira los registros del sitio (./ayllu logs site).`,
          ],
        }),
      limit,
    );
  });
  const work = Promise.resolve()
    .then(() => probe.run(context))
    .catch((error: unknown): DiagnosticLine => ({
      key,
      title,
      state: "mal",
      facts: [["Comprobación", "falló"]],
      advice: [
        `La comprobación de «${title}» falló: ${error instanceof Error ? error.message : String(error)}. Vuelve a cargar la página; si se repite, mira los registros del sitio (./ayllu logs site).`,
      ],
    }));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every probe side by side, each within its own time; the lines in the probes' order. */
export function runProbes(
  probes: DiagnosticProbe[],
  context: ProbeContext,
): Promise<DiagnosticLine[]> {
  return Promise.all(probes.map((probe) => runProbe(probe, context)));
}

/** Every line of the page, for `admin` (anyone else is refused). */
export async function diagnose(
  db: Db,
  config: Config,
  admin: Pick<User, "isAdmin">,
  seen: RequestSeen,
  now: Date,
  hostProbes: DiagnosticProbe[] = [],
): Promise<DiagnosticLine[]> {
  assertAdmin(admin);
  return runProbes(diagnosticProbes(hostProbes), { db, config, seen, now });
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
