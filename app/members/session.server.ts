// Sessions live in the database; the browser holds only a random token (its SHA-256 is the key).
import { isGrantableKind, type Grant } from "~/kernel/permissions";
import { createHash, randomBytes } from "node:crypto";
import { eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { preparedFor } from "~/db/prepared.server";
import { sessions, users, type User } from "~/db/schema.server";

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
/** …and after this long whatever happens (docs/decisions/004-sessions.md). */
const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale lastSeenAt may get before a request writes it again. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

interface CookieSettings {
  secure: boolean;
}

export function sessionCookieName(settings: CookieSettings): string {
  // The __Host- prefix needs Secure; plain http on a laptop cannot have it.
  return settings.secure ? "__Host-ayllu_session" : "ayllu_session";
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt < 0) continue;
    if (part.slice(0, eqAt).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eqAt + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  settings: CookieSettings & { maxAgeSeconds: number },
): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    "Path=/",
    `Max-Age=${settings.maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (settings.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Sessions one account may hold when nothing else is configured (SESSIONS_PER_ACCOUNT). */
const DEFAULT_SESSIONS_PER_ACCOUNT = 10;

/**
 * Starts a new session for `userId`; returns the Set-Cookie header value. An account holds at most
 * `maxPerAccount` sessions: past it, the oldest (by creation) end.
 */
export async function createSession(
  db: Db,
  userId: string,
  settings: CookieSettings,
  options: { maxPerAccount?: number } = {},
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const keep = Math.max(1, options.maxPerAccount ?? DEFAULT_SESSIONS_PER_ACCOUNT);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      idHash: hashToken(token),
      userId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
    });
    await tx.execute(sql`
      delete from ${sessions} where ${sessions.idHash} in (
        select ${sessions.idHash} from ${sessions} where ${sessions.userId} = ${userId}
        order by ${sessions.createdAt} desc, ${sessions.idHash} desc offset ${keep}
      )`);
  });
  return serializeCookie(sessionCookieName(settings), token, {
    ...settings,
    maxAgeSeconds: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

/** A key for this request's session (the hash of its token), or null without a session cookie. */
export function sessionKeyOf(request: Request, settings: CookieSettings): string | null {
  const token = readCookie(request, sessionCookieName(settings));
  return token && token.length <= 100 ? hashToken(token) : null;
}

// Every signed-in request asks this.
const sessionLookup = preparedFor((db) =>
  db
    .select({
      user: users,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      // The member's roles, in the same round trip: read on every request, so a role taken back
      // is gone at the next one (docs/decisions/038-roles-and-capabilities.md).
      grants: sql<Array<{ kind: string; eventId: string | null; categoryId: string | null }>>`(
        select coalesce(json_agg(json_build_object('kind', g.kind, 'eventId', g.event_id,
          'categoryId', g.category_id)), '[]'::json)
        from role_grants g where g.user_id = ${users.id})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, sql.placeholder("idHash")))
    .limit(1)
    .prepare("ayllu_session_user"),
);

/** The signed-in user of this request, or null. Expired sessions are deleted on sight. */
export async function getSessionUser(
  db: Db,
  request: Request,
  settings: CookieSettings,
): Promise<(User & { grants: Grant[] }) | null> {
  const token = readCookie(request, sessionCookieName(settings));
  if (!token || token.length > 100) return null;
  const idHash = hashToken(token);
  const [row] = await sessionLookup(db).execute({ idHash });
  if (!row) return null;
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + SESSION_IDLE_MS <= now) {
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.idHash, idHash));
  }
  const grants = (typeof row.grants === "string" ? JSON.parse(row.grants) : row.grants) as Array<{
    kind: string;
    eventId: string | null;
    categoryId: string | null;
  }>;
  return {
    ...row.user,
    grants: grants.filter((g): g is typeof g & Grant => isGrantableKind(g.kind)),
  };
}

/** Deletes this request's session; returns the Set-Cookie header value that clears the cookie. */
export async function destroySession(
  db: Db,
  request: Request,
  settings: CookieSettings,
): Promise<string> {
  const name = sessionCookieName(settings);
  const token = readCookie(request, name);
  if (token) await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
  return serializeCookie(name, "", { ...settings, maxAgeSeconds: 0 });
}

/**
 * The session cookie after a sign-in, by any way in: a new session id every time, and the session
 * this browser already had (another account's, say) ends here.
 */
export async function replaceSession(
  db: Db,
  request: Request,
  userId: string,
  settings: CookieSettings,
  options: { maxPerAccount?: number } = {},
): Promise<string> {
  await destroySession(db, request, settings);
  return createSession(db, userId, settings, options);
}

/** Removes sessions that can no longer be used; resolves with how many (a job, server/http/app.server.ts). */
export async function deleteExpiredSessions(db: Db, now: Date = new Date()): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, now),
        lt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
      ),
    )
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}

/** 'Cerrar sesión en todos los dispositivos': every session of the member ends, this one too. */
export async function destroyAllSessions(db: Db, userId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}
