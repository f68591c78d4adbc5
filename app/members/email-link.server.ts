// Sign-in by a link sent by e-mail (docs/decisions/034-sign-in-by-link.md). A link is a random
// secret of 256 bits; the database keeps only its SHA-256, the address, and the SHA-256 of a
// random nonce held in the requesting browser's cookie. The link works once, for 15 minutes.
// Opened in the browser that asked for it (the cookie matches), a GET signs in; anywhere else it
// only shows a confirmation page whose POST signs in, so a mail scanner that fetches links
// consumes nothing. Requests are limited per address and per client, counted in the database
// (sign_in_attempts, like the sign-in limit: docs/decisions/031-limits-and-jobs-across-nodes.md).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, lte, sql } from "drizzle-orm";
import type { Store } from "express-rate-limit";
import type { Db } from "~/db/client.server";
import { signInLinks, users, type User } from "~/db/schema.server";
import { Refusal } from "~/kernel/errors";
import { readCookie, serializeCookie } from "./session.server";
import { signInAttemptStore } from "./sign-in-limit.server";
import { accountsOfProvenEmail, EMAIL_ISSUER, normalizeEmail } from "./account-link.server";
import { grantListedAdmin } from "./user.server";
import { EMAIL_LINK_MESSAGES } from "./messages";

/** How long a link works. */
export const LINK_TTL_MS = 15 * 60_000;
/** The window of the per-address and per-client limits. */
const LIMIT_WINDOW_MS = 60 * 60_000;

interface CookieSettings {
  secure: boolean;
}

export function linkCookieName(settings: CookieSettings): string {
  return settings.secure ? "__Host-ayllu_link" : "ayllu_link";
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/** The link's path for `token`. */
export function linkPath(token: string): string {
  return `/login/enlace/${token}`;
}

export interface LinkLimits {
  perAddress: number;
  perClient: number;
}

/** The two counts of link requests, in the sign-in limit's table under their own key prefixes. */
export function linkRequestCounter(db: Db) {
  const store: Store = signInAttemptStore(db);
  // The store takes its window from express-rate-limit's options; here it is given directly.
  void store.init?.({ windowMs: LIMIT_WINDOW_MS } as Parameters<NonNullable<Store["init"]>>[0]);
  return {
    /** Counts one request; true while both counts are within their limits. */
    async allow(email: string, client: string, limits: LinkLimits): Promise<boolean> {
      const byClient = await store.increment(`link-client:${client}`);
      if (byClient.totalHits > limits.perClient) return false;
      const byAddress = await store.increment(`link-address:${email}`);
      return byAddress.totalHits <= limits.perAddress;
    },
  };
}

export class LinkLimitError extends Refusal {
  override name = "LinkLimitError";
  constructor() {
    super(EMAIL_LINK_MESSAGES.tooMany, 429, { retryAfter: LIMIT_WINDOW_MS / 1000 });
  }
}

export interface IssuedLink {
  /** The address it goes to, as typed (trimmed). */
  email: string;
  /** The link's absolute URL. */
  url: string;
  expiresAt: Date;
  /** The cookie binding it to this browser (the same nonce for every link of one browser). */
  setCookie: string;
}

/**
 * Makes a link for `email` (already a valid address) bound to this browser; refuses (429) past
 * either limit. Expired links of anyone are deleted on the way. The answer does not depend on
 * whether the address has an account.
 */
export async function issueSignInLink(
  db: Db,
  request: Request,
  input: {
    email: string;
    redirectTo: string | null;
    client: string;
    origin: string;
    limits: LinkLimits;
    now: Date;
  },
  settings: CookieSettings,
): Promise<IssuedLink> {
  const email = normalizeEmail(input.email);
  if (!(await linkRequestCounter(db).allow(email, input.client, input.limits)))
    throw new LinkLimitError();
  const cookie = readCookie(request, linkCookieName(settings));
  const nonce = cookie && SECRET.test(cookie) ? cookie : randomBytes(32).toString("base64url");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(input.now.getTime() + LINK_TTL_MS);
  await db.delete(signInLinks).where(lte(signInLinks.expiresAt, input.now));
  await db.insert(signInLinks).values({
    tokenHash: sha256(token),
    email,
    browserHash: sha256(nonce),
    redirectTo: input.redirectTo,
    createdAt: input.now,
    expiresAt,
  });
  return {
    email: input.email.trim(),
    url: new URL(linkPath(token), input.origin).toString(),
    expiresAt,
    setCookie: serializeCookie(linkCookieName(settings), nonce, {
      ...settings,
      maxAgeSeconds: LINK_TTL_MS / 1000,
    }),
  };
}

/** A link that can still be used: its address, and whether this browser is the one that asked. */
export interface PendingLink {
  email: string;
  sameBrowser: boolean;
}

async function findLink(db: Db, token: unknown, now: Date) {
  if (typeof token !== "string" || !SECRET.test(token)) return null;
  const [row] = await db
    .select()
    .from(signInLinks)
    .where(eq(signInLinks.tokenHash, sha256(token)))
    .limit(1);
  return row && row.expiresAt > now ? row : null;
}

function isSameBrowser(request: Request, browserHash: string, settings: CookieSettings): boolean {
  const nonce = readCookie(request, linkCookieName(settings));
  if (!nonce || !SECRET.test(nonce)) return false;
  const given = Buffer.from(sha256(nonce));
  const expected = Buffer.from(browserHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a followed link is, without using it; null when it is unknown, used or expired. */
export async function inspectLink(
  db: Db,
  request: Request,
  token: unknown,
  now: Date,
  settings: CookieSettings,
): Promise<PendingLink | null> {
  const row = await findLink(db, token, now);
  if (!row) return null;
  return { email: row.email, sameBrowser: isSameBrowser(request, row.browserHash, settings) };
}

export class LinkInvalidError extends Refusal {
  override name = "LinkInvalidError";
  constructor() {
    super(EMAIL_LINK_MESSAGES.invalid, 400);
  }
}

export class SharedAddressError extends Refusal {
  override name = "SharedAddressError";
  constructor() {
    super(EMAIL_LINK_MESSAGES.sharedAddress, 409);
  }
}

/**
 * Uses the link (once: the row is deleted, and of two simultaneous uses one finds nothing) and
 * returns the account it signs into. `requireSameBrowser` is the GET's condition: without the
 * binding cookie nothing is used. The address is then proven: it reaches the account whose
 * verified or imported e-mail it is, or a new member; a shared address reaches neither.
 */
export async function redeemSignInLink(
  db: Db,
  request: Request,
  token: unknown,
  options: { now: Date; adminEmails: readonly string[]; requireSameBrowser: boolean },
  settings: CookieSettings,
): Promise<{ user: User; created: boolean; redirectTo: string | null }> {
  const row = await findLink(db, token, options.now);
  if (!row) throw new LinkInvalidError();
  if (options.requireSameBrowser && !isSameBrowser(request, row.browserHash, settings))
    throw new LinkInvalidError();
  const [used] = await db
    .delete(signInLinks)
    .where(eq(signInLinks.tokenHash, row.tokenHash))
    .returning({ email: signInLinks.email, redirectTo: signInLinks.redirectTo });
  if (!used) throw new LinkInvalidError();
  const { user, created } = await signInWithProvenEmail(db, used.email, options.adminEmails);
  return { user, created, redirectTo: used.redirectTo };
}

/**
 * The account of a person who proved `email` (followed a link sent to it): the one whose e-mail
 * it is, now marked verified; or a new member (issuer EMAIL_ISSUER, subject the address). Two
 * accounts with it: neither (SharedAddressError). ADMIN_EMAILS applies as for a provider.
 */
export async function signInWithProvenEmail(
  db: Db,
  email: string,
  adminEmails: readonly string[],
): Promise<{ user: User; created: boolean }> {
  const normalized = normalizeEmail(email);
  const identity = { email: normalized, emailVerified: true };
  const found = await accountsOfProvenEmail(db, normalized);
  if (found.length > 1) throw new SharedAddressError();
  if (found[0]) {
    let user = found[0];
    if (!user.emailVerified) {
      const [updated] = await db
        .update(users)
        .set({ emailVerified: true })
        .where(eq(users.id, user.id))
        .returning();
      user = updated ?? user;
    }
    return grantListedAdmin(db, user, identity, adminEmails, false);
  }
  const inserted = await db
    .insert(users)
    .values({ issuer: EMAIL_ISSUER, subject: normalized, email: normalized, emailVerified: true })
    .onConflictDoNothing({ target: [users.issuer, users.subject] })
    .returning();
  const user =
    inserted[0] ??
    (
      await db
        .select()
        .from(users)
        .where(sql`${users.issuer} = ${EMAIL_ISSUER} and ${users.subject} = ${normalized}`)
        .limit(1)
    )[0];
  if (!user) throw new Error("El perfil no se pudo crear ni encontrar");
  return grantListedAdmin(db, user, identity, adminEmails, inserted.length > 0);
}
