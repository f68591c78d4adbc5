// Configuration is read once, at start-up, from the environment, and checked here.
// Every variable is documented in docs/configuracion.md.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const GOOGLE_ISSUER = "https://accounts.google.com";

type OidcSettings =
  | { kind: "external"; issuer: string; clientId: string; clientSecret: string; name: string }
  | { kind: "development" }
  /** Production without an OpenID provider: members sign in by e-mailed links only. */
  | { kind: "none" };

export interface Config {
  production: boolean;
  port: number;
  host: string;
  publicUrl: URL;
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * Where uploaded images are kept (docs/decisions/022-uploads.md) when there is no object store,
   * and where the local folder is for `npm run imagenes` (the move into the bucket and back).
   */
  uploadsDir: string;
  /**
   * PRIVATE_DIR: private files (the bank's QR, payment receipts; decision 048) when there is no
   * object store. Never under UPLOADS_DIR, which /imagenes serves; <DATA_DIR>/privado by default.
   */
  privateDir: string;
  /** An S3-compatible bucket for the photos instead of the folder (docs/decisions/032-object-storage.md). */
  objectStore: ObjectStoreSettings | null;
  /** The largest image file accepted, in bytes. */
  uploadMaxBytes: number;
  /** The most pixels an uploaded image may declare (width × height). */
  uploadMaxPixels: number;
  /** Upload requests whose images this process decodes at once (docs/decisions/028-image-decoding-bound.md). */
  uploadDecodes: number;
  /** Upload requests that may wait for a decoding turn in this process; more are refused (503). */
  uploadQueue: number;
  /** Uploads one member may make in a minute, counted in the database across processes. */
  uploadsPerMinute: number;
  sessionSecret: string;
  oidc: OidcSettings;
  adminEmails: string[];
  siteTimezone: string;
  seedDemo: boolean;
  /**
   * Express's "trust proxy": false (no proxy), a number of proxy hops, or the proxies' addresses.
   * Never `true`, which would let the client's own X-Forwarded-For choose its address.
   */
  trustProxy: false | number | string[];
  loginRateLimit: number;
  /** Live publication streams one session may hold open; the oldest is closed past it. */
  liveStreamsPerSession: number;
  /**
   * Live results streams (decision 058) one client address may hold: a school's hall often shares
   * one address, so the default is high; and how many one process holds in all.
   */
  resultsStreamsPerAddress: number;
  resultsStreamsMax: number;
  /**
   * How pages are rendered (decision 054): "string" (renderToString, the default) or "stream"
   * (React's stream, kept one release so that the bench compares both in one run).
   */
  pageRender: "string" | "stream";
  /** Sessions one account may hold; the oldest ends past it. */
  sessionsPerAccount: number;
  /** How often expired sessions are deleted, in milliseconds. */
  sessionSweepMs: number;
  /** Server processes (docs/decisions/015-page-cache.md); always 1 on the embedded database. */
  webConcurrency: number;
  mail: MailSettings;
  /** Sign-in links by e-mail (docs/decisions/034-sign-in-by-link.md). */
  emailLinks: EmailLinkSettings;
  /** AUDIT_RETENTION_DAYS: audit log entries older than this go (daily); null keeps them forever. */
  auditRetentionDays: number | null;
  /** RECEIPT_RETENTION_DAYS: a payment's receipt is removed this long after its event ends. */
  receiptRetentionDays: number;
  /**
   * Production on the embedded database in one process (EMBEDDED_DATABASE=1, the small-site mode
   * of docs/decisions/035-production-image.md); its session secret is generated once into DATA_DIR.
   */
  smallSite: boolean;
  /** The nightly backup into BACKUP_DIR, or null without it. */
  backups: BackupSettings | null;
}

/** BACKUP_*: the nightly backup into a folder, kept by rotation, copied to the bucket if any. */
export interface BackupSettings {
  dir: string;
  /** The hour (0–23, in SITE_TIMEZONE) the nightly backup runs. */
  hour: number;
  keepDaily: number;
  keepWeekly: number;
  /**
   * BACKUP_ALLOW_MISSING=1: the nightly backup goes on when rows name files the stores lack, and
   * lists them in the copy; without it such a backup fails (decision 062).
   */
  allowMissing: boolean;
}

/**
 * 'Recibir un enlace por correo': offered whenever mail can go somewhere (SMTP, or outside
 * production the page itself shows the link). The limits are per hour, counted in the database.
 */
export interface EmailLinkSettings {
  enabled: boolean;
  /** Links one address may be sent in an hour. */
  perAddress: number;
  /** Links one client address may ask for in an hour. */
  perClient: number;
}

/**
 * Where mail goes (docs/decisions/021-mail.md): an SMTP server; outside production without one,
 * the development mailbox (/__dev/correo); in production without one, nowhere (a warning at start).
 */
export interface MailSettings {
  transport: { kind: "smtp"; url: string } | { kind: "mailbox" } | { kind: "none" };
  /** The From header. */
  from: string;
  /** How many hours before an event its participants are reminded. */
  reminderHours: number;
  /** How many hours before a held place runs out its member is warned (decision 048). */
  holdReminderHours: number;
}

/** S3_*: the bucket every node reads and writes the photos in (docs/configuracion.md). */
export interface ObjectStoreSettings {
  /** S3_ENDPOINT; null for AWS S3 itself (the SDK's endpoint for the region). */
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** S3_PUBLIC_URL: where the bucket is served to browsers (a public bucket or a CDN), photos only. */
  publicUrl: string | null;
  /** S3_PRIVATE_BUCKET: private files' bucket; without it they go under privado/ in `bucket`. */
  privateBucket: string | null;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A whole number of `unit` between `min` and `max`, with the same Spanish messages for every setting. */
function wholeNumber(name: string, unit: string, min: number, max: number) {
  const notWhole = `${name} debe ser un número entero de ${unit}`;
  const outside = `${name} debe estar entre ${min} y ${max}`;
  return z.coerce.number({ error: notWhole }).int(notWhole).min(min, outside).max(max, outside);
}

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/** An S3 bucket's name (the rules every S3-compatible store shares). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "PUBLIC_URL debe ser una URL http(s)" })
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL debe empezar con postgres:// o postgresql://")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  UPLOADS_DIR: z.string().min(1).optional(),
  PRIVATE_DIR: z.string().min(1).optional(),
  UPLOAD_MAX_MB: z.coerce
    .number()
    .min(0.1, "UPLOAD_MAX_MB debe ser un tamaño en MB (0.1 o más)")
    .max(100, "UPLOAD_MAX_MB puede ser como máximo 100")
    .default(10),
  UPLOAD_MAX_MEGAPIXELS: z.coerce
    .number()
    .min(1, "UPLOAD_MAX_MEGAPIXELS debe ser 1 o más")
    .max(250, "UPLOAD_MAX_MEGAPIXELS puede ser como máximo 250")
    .default(50),
  UPLOAD_DECODES: wholeNumber("UPLOAD_DECODES", "imágenes", 1, 16).default(1),
  UPLOAD_QUEUE: wholeNumber("UPLOAD_QUEUE", "subidas", 0, 100).default(8),
  UPLOADS_PER_MINUTE: wholeNumber("UPLOADS_PER_MINUTE", "subidas", 1, 1000).default(30),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET debe tener al menos 32 caracteres").optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_PROVIDER_NAME: z.string().min(1).optional(),
  ADMIN_EMAILS: z.string().default(""),
  SITE_TIMEZONE: z.string().default("America/La_Paz"),
  SEED_DEMO: flag.optional(),
  TRUST_PROXY: z.string().default("0"),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(100).default(5),
  RESULTS_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(300),
  RESULTS_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(3000),
  SESSIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(10),
  EMAIL_LINKS_PER_ADDRESS: wholeNumber(
    "EMAIL_LINKS_PER_ADDRESS",
    "enlaces por hora",
    1,
    100,
  ).default(5),
  EMAIL_LINKS_PER_CLIENT: wholeNumber(
    "EMAIL_LINKS_PER_CLIENT",
    "enlaces por hora",
    1,
    1000,
  ).default(20),
  SESSION_SWEEP_MINUTES: z.coerce.number().min(0.01).max(10080).default(60),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^\s]+$/,
      "SMTP_URL debe ser una URL smtp:// o smtps:// (por ejemplo smtp://usuario:clave@servidor:587)",
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^[^\r\n]*@[^\r\n]*$/,
      "MAIL_FROM debe ser una dirección de correo, por ejemplo 'Ayllu <eventos@tu.sitio>'",
    )
    .optional(),
  AUDIT_RETENTION_DAYS: wholeNumber("AUDIT_RETENTION_DAYS", "días", 1, 36500).optional(),
  RECEIPT_RETENTION_DAYS: wholeNumber("RECEIPT_RETENTION_DAYS", "días", 1, 36500).default(365),
  HOLD_REMINDER_HOURS: wholeNumber("HOLD_REMINDER_HOURS", "horas", 1, 168).default(6),
  REMINDER_HOURS: wholeNumber("REMINDER_HOURS", "horas", 1, 168).default(24),
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error:
        "S3_ENDPOINT debe ser una URL http(s), por ejemplo https://<cuenta>.r2.cloudflarestorage.com",
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(
      /^[a-z0-9-]{1,40}$/,
      "S3_REGION debe ser el nombre de una región, por ejemplo auto (R2), garage (Garage) o us-east-1",
    )
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      BUCKET_NAME,
      "S3_BUCKET debe ser un nombre de bucket: 3 a 63 minúsculas, cifras, puntos o guiones",
    )
    .optional(),
  S3_PRIVATE_BUCKET: z
    .string()
    .regex(
      BUCKET_NAME,
      "S3_PRIVATE_BUCKET debe ser un nombre de bucket: 3 a 63 minúsculas, cifras, puntos o guiones",
    )
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).max(256, "S3_ACCESS_KEY_ID es demasiado larga").optional(),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .max(256, "S3_SECRET_ACCESS_KEY es demasiado larga")
    .optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  S3_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "S3_PUBLIC_URL debe ser una URL http(s)" })
    .optional(),
  EMBEDDED_DATABASE: flag.optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_HOUR: z.coerce
    .number({ error: "BACKUP_HOUR debe ser una hora entre 0 y 23" })
    .int("BACKUP_HOUR debe ser una hora entre 0 y 23")
    .min(0, "BACKUP_HOUR debe ser una hora entre 0 y 23")
    .max(23, "BACKUP_HOUR debe ser una hora entre 0 y 23")
    .default(3),
  BACKUP_KEEP_DAILY: z.coerce
    .number({ error: "BACKUP_KEEP_DAILY debe ser un número de copias entre 1 y 365" })
    .int("BACKUP_KEEP_DAILY debe ser un número de copias entre 1 y 365")
    .min(1, "BACKUP_KEEP_DAILY debe ser un número de copias entre 1 y 365")
    .max(365, "BACKUP_KEEP_DAILY debe ser un número de copias entre 1 y 365")
    .default(7),
  BACKUP_KEEP_WEEKLY: z.coerce
    .number({ error: "BACKUP_KEEP_WEEKLY debe ser un número de copias entre 0 y 520" })
    .int("BACKUP_KEEP_WEEKLY debe ser un número de copias entre 0 y 520")
    .min(0, "BACKUP_KEEP_WEEKLY debe ser un número de copias entre 0 y 520")
    .max(520, "BACKUP_KEEP_WEEKLY debe ser un número de copias entre 0 y 520")
    .default(4),
  BACKUP_ALLOW_MISSING: flag.default(false),
  PAGE_RENDER: z
    .enum(["string", "stream"], {
      error: 'PAGE_RENDER debe ser "string" o "stream"',
    })
    .default("string"),
  WEB_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1, "WEB_CONCURRENCY debe ser un número de procesos (1 o más)")
    .max(256)
    .optional(),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Express understands it: a number of proxy hops in front of the server, or the
 * addresses (and CIDR ranges, or loopback/linklocal/uniquelocal) of the proxies. "true"/"yes"
 * mean one hop: trusting every hop would let a client choose its own address.
 */
function parseTrustProxy(value: string): Config["trustProxy"] | null {
  const text = value.trim().toLowerCase();
  if (text === "0" || text === "false" || text === "no") return false;
  if (text === "true" || text === "yes") return 1;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : null;
}

/**
 * The object store, when S3_BUCKET is given; null otherwise (photos stay in the folder). Every
 * problem names its variable. Private files are never where S3_PUBLIC_URL serves: with a public
 * URL they need a bucket of their own.
 */
function objectStoreOf(
  e: z.infer<typeof EnvSchema>,
  problems: string[],
): ObjectStoreSettings | null {
  const given = (
    [
      "S3_ENDPOINT",
      "S3_REGION",
      "S3_ACCESS_KEY_ID",
      "S3_SECRET_ACCESS_KEY",
      "S3_FORCE_PATH_STYLE",
      "S3_PUBLIC_URL",
      "S3_PRIVATE_BUCKET",
    ] as const
  ).filter((name) => e[name] !== undefined);
  if (!e.S3_BUCKET) {
    if (given.length > 0)
      problems.push(
        `S3_BUCKET falta (se dio ${given.join(", ")}): es el bucket donde se guardan las fotos`,
      );
    return null;
  }
  if (!e.S3_ACCESS_KEY_ID) problems.push("S3_ACCESS_KEY_ID falta (se dio S3_BUCKET)");
  if (!e.S3_SECRET_ACCESS_KEY) problems.push("S3_SECRET_ACCESS_KEY falta (se dio S3_BUCKET)");
  if (e.S3_PUBLIC_URL) {
    if (!e.S3_PRIVATE_BUCKET)
      problems.push(
        "S3_PUBLIC_URL publica el bucket S3_BUCKET entero: los archivos privados (comprobantes de pago) irían donde se publica. Pon S3_PRIVATE_BUCKET, un bucket sin acceso público, o quita S3_PUBLIC_URL",
      );
    else if (e.S3_PRIVATE_BUCKET === e.S3_BUCKET)
      problems.push(
        "S3_PRIVATE_BUCKET es el mismo bucket que S3_BUCKET, que S3_PUBLIC_URL publica: los archivos privados necesitan otro bucket, sin acceso público",
      );
  }
  return {
    endpoint: e.S3_ENDPOINT ?? null,
    region: e.S3_REGION ?? "us-east-1",
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID ?? "",
    secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? "",
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
    publicUrl: e.S3_PUBLIC_URL ? e.S3_PUBLIC_URL.replace(/\/+$/, "") : null,
    privateBucket: e.S3_PRIVATE_BUCKET ?? null,
  };
}

/** Reads the configuration from `env`; throws a ConfigError naming every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blank = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = EnvSchema.safeParse(blank);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const problems: string[] = [];

  let oidc: OidcSettings;
  if (e.OIDC_ISSUER || e.OIDC_CLIENT_ID || e.OIDC_CLIENT_SECRET) {
    if (!e.OIDC_ISSUER)
      problems.push("OIDC_ISSUER falta (se dio OIDC_CLIENT_ID u OIDC_CLIENT_SECRET)");
    if (!e.OIDC_CLIENT_ID) problems.push("OIDC_CLIENT_ID falta");
    if (!e.OIDC_CLIENT_SECRET) problems.push("OIDC_CLIENT_SECRET falta");
    oidc = {
      kind: "external",
      issuer: e.OIDC_ISSUER ?? "",
      clientId: e.OIDC_CLIENT_ID ?? "",
      clientSecret: e.OIDC_CLIENT_SECRET ?? "",
      name: e.OIDC_PROVIDER_NAME ?? "OpenID Connect",
    };
  } else if (e.GOOGLE_CLIENT_ID || e.GOOGLE_CLIENT_SECRET) {
    if (!e.GOOGLE_CLIENT_ID) problems.push("GOOGLE_CLIENT_ID falta (se dio GOOGLE_CLIENT_SECRET)");
    if (!e.GOOGLE_CLIENT_SECRET)
      problems.push("GOOGLE_CLIENT_SECRET falta (se dio GOOGLE_CLIENT_ID)");
    oidc = {
      kind: "external",
      issuer: GOOGLE_ISSUER,
      clientId: e.GOOGLE_CLIENT_ID ?? "",
      clientSecret: e.GOOGLE_CLIENT_SECRET ?? "",
      name: "Google",
    };
  } else {
    // Production without a provider is a site whose members sign in by e-mailed links.
    oidc = production ? { kind: "none" } : { kind: "development" };
  }

  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy === null) {
    problems.push(
      `TRUST_PROXY debe ser 0, un número de proxies (1 detrás de un proxy) o una lista de sus direcciones: ${e.TRUST_PROXY}`,
    );
  }
  if (e.PUBLIC_URL?.startsWith("https:") && !trustProxy) {
    // The server itself speaks plain HTTP; an https origin means a TLS proxy in front, and without
    // trusting it every request looks like http and React Router refuses every form post.
    problems.push(
      "PUBLIC_URL es https:// pero TRUST_PROXY no está configurada: detrás de un proxy TLS pon TRUST_PROXY=1 (o la dirección del proxy) para que el servidor sepa que la petición llegó por https",
    );
  }

  const objectStore = objectStoreOf(e, problems);
  const uploadsDir = path.resolve(e.UPLOADS_DIR ?? path.join(e.DATA_DIR, "uploads"));
  const privateDir = path.resolve(e.PRIVATE_DIR ?? path.join(e.DATA_DIR, "privado"));
  if (privateDir === uploadsDir || privateDir.startsWith(uploadsDir + path.sep))
    problems.push(
      "PRIVATE_DIR está dentro de UPLOADS_DIR, que el sitio publica en /imagenes: los archivos privados (QR del banco, comprobantes de pago) necesitan una carpeta fuera de ella",
    );

  if (!isTimeZone(e.SITE_TIMEZONE))
    problems.push(`SITE_TIMEZONE no es una zona horaria: ${e.SITE_TIMEZONE}`);

  const smallSite = production && !e.DATABASE_URL && e.EMBEDDED_DATABASE === true;
  if (e.EMBEDDED_DATABASE && e.DATABASE_URL)
    problems.push(
      "EMBEDDED_DATABASE=1 pide la base de datos embebida, pero también se dio DATABASE_URL: deja solo una de las dos",
    );
  if (production) {
    if (!e.DATABASE_URL && !e.EMBEDDED_DATABASE)
      problems.push(
        "DATABASE_URL falta (obligatoria en producción; para un sitio pequeño de un solo proceso sobre la base de datos embebida en DATA_DIR, pon EMBEDDED_DATABASE=1)",
      );
    if (!e.SESSION_SECRET && !smallSite)
      problems.push("SESSION_SECRET falta (obligatoria en producción)");
    if (!e.PUBLIC_URL) problems.push("PUBLIC_URL falta (obligatoria en producción)");
    // At least one real way in: an OpenID provider, or SMTP for the e-mailed links.
    if (oidc.kind === "none" && !e.SMTP_URL) {
      problems.push(
        "No hay ninguna forma de iniciar sesión: configura GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET " +
          "(u OIDC_ISSUER, OIDC_CLIENT_ID y OIDC_CLIENT_SECRET) para iniciar sesión con un proveedor, " +
          "o SMTP_URL para enviar enlaces de inicio de sesión por correo " +
          "(el proveedor de desarrollo no se usa en producción)",
      );
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Configuración inválida:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }

  const port = e.PORT;
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${port}`);
  return {
    production,
    port,
    host: e.HOST ?? (production ? "0.0.0.0" : "localhost"),
    publicUrl: new URL(publicUrl.origin),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    uploadsDir,
    privateDir,
    objectStore,
    uploadMaxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
    uploadMaxPixels: Math.round(e.UPLOAD_MAX_MEGAPIXELS * 1_000_000),
    uploadDecodes: e.UPLOAD_DECODES,
    uploadQueue: e.UPLOAD_QUEUE,
    uploadsPerMinute: e.UPLOADS_PER_MINUTE,
    // Outside production a fresh secret per process is enough: it only signs short-lived
    // sign-in cookies; sessions themselves live in the database.
    sessionSecret:
      e.SESSION_SECRET ??
      (smallSite ? secretInDataDir(e.DATA_DIR) : randomBytes(32).toString("base64url")),
    oidc,
    adminEmails: e.ADMIN_EMAILS.split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    siteTimezone: e.SITE_TIMEZONE,
    seedDemo: e.SEED_DEMO ?? !production,
    trustProxy: trustProxy ?? false,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    liveStreamsPerSession: e.LIVE_STREAMS_PER_SESSION,
    resultsStreamsPerAddress: e.RESULTS_STREAMS_PER_ADDRESS,
    resultsStreamsMax: e.RESULTS_STREAMS_MAX,
    pageRender: e.PAGE_RENDER,
    sessionsPerAccount: e.SESSIONS_PER_ACCOUNT,
    sessionSweepMs: Math.round(e.SESSION_SWEEP_MINUTES * 60_000),
    // One process per core on PostgreSQL. With the development sign-in provider (a development
    // set-up) the default stays one; more work, the primary process then runs the provider. The
    // embedded database is one process.
    webConcurrency: !e.DATABASE_URL
      ? 1
      : (e.WEB_CONCURRENCY ?? (oidc.kind === "development" ? 1 : os.availableParallelism())),
    mail: {
      // As the development sign-in provider: the mailbox never exists in production.
      transport: e.SMTP_URL
        ? { kind: "smtp", url: e.SMTP_URL }
        : production
          ? { kind: "none" }
          : { kind: "mailbox" },
      from: e.MAIL_FROM ?? `Ayllu <no-responder@${publicUrl.hostname}>`,
      reminderHours: e.REMINDER_HOURS,
      holdReminderHours: e.HOLD_REMINDER_HOURS,
    },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS ?? null,
    receiptRetentionDays: e.RECEIPT_RETENTION_DAYS,
    emailLinks: {
      // Outside production without SMTP the link is shown on the page to whoever asked for it.
      enabled: Boolean(e.SMTP_URL) || !production,
      perAddress: e.EMAIL_LINKS_PER_ADDRESS,
      perClient: e.EMAIL_LINKS_PER_CLIENT,
    },
    smallSite,
    backups: e.BACKUP_DIR
      ? {
          dir: path.resolve(e.BACKUP_DIR),
          hour: e.BACKUP_HOUR,
          keepDaily: e.BACKUP_KEEP_DAILY,
          keepWeekly: e.BACKUP_KEEP_WEEKLY,
          allowMissing: e.BACKUP_ALLOW_MISSING,
        }
      : null,
  };
}

/**
 * The small site's session secret: made once, kept in DATA_DIR/session-secret (readable by this
 * user only), the same at every start so sign-ins under way survive a restart.
 */
function secretInDataDir(dataDir: string): string {
  const file = path.join(path.resolve(dataDir), "session-secret");
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "";
  if (existing.length >= 32) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return secret;
}
