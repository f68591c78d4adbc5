// The way back in (docs/decisions/074-console-sign-in-link.md): a one-time sign-in link for an
// admin, printed on the server's console by `./ayllu admin-link EMAIL` (or `npm run admin-link`).
// It is the way in when mail is down on a site that signs in by e-mail only, and the way to reach
// Diagnóstico when PUBLIC_URL is wrong: it works at whatever address it is opened.
//
// The link carries its own proof: the address, when it runs out and a random nonce, signed with
// the site's secret (SESSION_SECRET, or the small site's own). The command needs no database, so
// it works beside a running small site, whose embedded database only one process may open. It
// works once: its first use claims the nonce in the database, across processes and nodes. It lives
// 15 minutes, signs in only an admin (or an address ADMIN_EMAILS names), and its use is written
// to the audit log.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claimJobRun } from "~/db/jobs.server";
import type { User } from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { Refusal } from "~/kernel/errors";
import { accountsOfProvenEmail, normalizeEmail } from "./account-link.server";
import { SharedAddressError, signInWithProvenEmail } from "./email-link.server";
import { CONSOLE_LINK_MESSAGES } from "./messages";

/** How long a console link works. */
export const CONSOLE_LINK_TTL_MS = 15 * 60_000;
/** Where a console link leads; the token follows. */
export const CONSOLE_LINK_PATH = "/login/consola/";
/** Where the admin lands. */
export const CONSOLE_LINK_LANDING = "/admin/diagnostico";

/** The claims of used links, in the jobs' table: one row per nonce, kept a day. */
const USED_PREFIX = "enlace-de-consola:";
const USED_KEPT_MS = 24 * 60 * 60_000;

const TOKEN = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const EMAIL_MAX = 254;

interface Claims {
  email: string;
  expiresAt: Date;
  nonce: string;
}

function signature(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`enlace-de-consola\n${payload}`).digest();
}

/** A new link's token and path for `email` (trimmed, lower case), valid from `now`. */
export function issueConsoleLink(
  secret: string,
  email: string,
  now: Date,
): { token: string; path: string; email: string; expiresAt: Date } {
  const normalized = normalizeEmail(email);
  const expiresAt = new Date(now.getTime() + CONSOLE_LINK_TTL_MS);
  const nonce = randomBytes(16).toString("base64url");
  const payload = Buffer.from(
    JSON.stringify({ e: normalized, x: expiresAt.getTime(), n: nonce }),
  ).toString("base64url");
  const token = `${payload}.${signature(secret, payload).toString("base64url")}`;
  return { token, path: `${CONSOLE_LINK_PATH}${token}`, email: normalized, expiresAt };
}

/** The link's claims when its signature holds and it has not run out; null otherwise. */
export function readConsoleLink(secret: string, token: unknown, now: Date): Claims | null {
  if (typeof token !== "string") return null;
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, payload, mac] = match as unknown as [string, string, string];
  const given = Buffer.from(mac, "base64url");
  const expected = signature(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const { e, x, n } = parsed as Record<string, unknown>;
  if (typeof e !== "string" || e.length === 0 || e.length > EMAIL_MAX) return null;
  if (typeof x !== "number" || !Number.isFinite(x)) return null;
  if (typeof n !== "string" || !NONCE.test(n)) return null;
  // A link never lives longer than its life from now, whatever clock made it.
  if (x <= now.getTime() || x > now.getTime() + CONSOLE_LINK_TTL_MS + 60_000) return null;
  return { email: e, expiresAt: new Date(x), nonce: n };
}

export class ConsoleLinkInvalidError extends Refusal {
  override name = "ConsoleLinkInvalidError";
  constructor() {
    super(CONSOLE_LINK_MESSAGES.invalid, 400);
  }
}

export class ConsoleLinkNotAdminError extends Refusal {
  override name = "ConsoleLinkNotAdminError";
  constructor(email: string) {
    super(CONSOLE_LINK_MESSAGES.notAdmin(email), 403);
  }
}

/** Whether `email` belongs to an admin, or ADMIN_EMAILS names it; a shared address is refused. */
async function isAdminAddress(
  db: Db,
  email: string,
  adminEmails: readonly string[],
): Promise<boolean> {
  const found = await accountsOfProvenEmail(db, email);
  if (found.length > 1) throw new SharedAddressError();
  return Boolean(found[0]?.isAdmin) || adminEmails.includes(email);
}

/** What a followed link is, without using it: the address it signs in, or null. */
export function inspectConsoleLink(
  secret: string,
  token: unknown,
  now: Date,
): { email: string; expiresAt: Date } | null {
  const claims = readConsoleLink(secret, token, now);
  return claims && { email: claims.email, expiresAt: claims.expiresAt };
}

/**
 * Uses the link: once (its nonce is claimed; a second use, here or on another node, finds it
 * taken), for an admin only. Returns the account it signs in, after writing the use to the audit
 * log with the address it was opened at and the client's address.
 */
export async function redeemConsoleLink(
  db: Db,
  secret: string,
  token: unknown,
  options: {
    now: Date;
    adminEmails: readonly string[];
    /** Where it was opened (scheme, host and port) and from which client address. */
    openedAt: string;
    client: string;
  },
): Promise<User> {
  const claims = readConsoleLink(secret, token, options.now);
  if (!claims) throw new ConsoleLinkInvalidError();
  if (!(await isAdminAddress(db, claims.email, options.adminEmails)))
    throw new ConsoleLinkNotAdminError(claims.email);
  if (!(await claimJobRun(db, `${USED_PREFIX}${claims.nonce}`, USED_KEPT_MS)))
    throw new ConsoleLinkInvalidError();
  // Claims of links used more than a day ago are of no more use: every such link has run out.
  await db.execute(sql`
    delete from scheduled_jobs
    where name like ${`${USED_PREFIX}%`}
      and last_run_at < clock_timestamp() - make_interval(secs => ${USED_KEPT_MS / 1000})`);
  const { user } = await signInWithProvenEmail(db, claims.email, options.adminEmails);
  await recordAudit(db, {
    actor: user,
    role: "admin",
    action: "admin.consoleLink",
    itemKind: "user",
    itemId: user.id,
    summary: `Entró con un enlace de la consola del servidor, abierto en ${options.openedAt} desde ${options.client || "una dirección desconocida"}`,
  });
  return user;
}
