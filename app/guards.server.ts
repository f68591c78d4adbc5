// Who is asking: every loader and action that needs a person goes through these.
import { data, redirect, type AppLoadContext } from "react-router";
import { MESSAGES, type MessageKey } from "~/messages";
import type { User } from "~/db/schema.server";
import { getSessionUser, readCookie, sessionCookieName } from "~/members/session.server";
import {
  assertMay,
  may,
  mayAdminister,
  mayAnyTime,
  NotAllowedError,
  type Action,
  type Grant,
  type Scope,
} from "~/kernel/permissions";
import { eventScope } from "~/events/event.server";
import { linkHolderOf, type HolderLookup, type LinkHolder } from "~/members/staff-links.server";
import { hasCompletedProfile } from "~/members/user.server";
import { cookieSettings, redirectWithFlash } from "~/flash.server";

// React Router hands each loader of one request its own Request object, but one load context
// (made per request in server/http/app.server.ts): the lookup is kept on the context, with the
// session cookie and method it was made for. An action's answer is rendered by loaders under a
// GET, so they look again and see what the action changed (a new name, a session ended).
const memo = new WeakMap<
  AppLoadContext,
  { cookie: string | null; method: string; user: Promise<SessionUser | null> }
>();

/** A signed-in member with the roles they hold now (read on every request: a revoked role is gone at once). */
export type SessionUser = User & { grants: Grant[] };

/** The signed-in member, or null. Looked up once per request. */
export function getUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const settings = cookieSettings(context);
  const cookie = readCookie(request, sessionCookieName(settings)) ?? null;
  const method = request.method;
  // A session is about to be read: this answer is this person's alone (never in the page cache).
  if (cookie !== null) context.personal();
  const known = memo.get(context);
  if (known && known.cookie === cookie && known.method === method) return known.user;
  const user = getSessionUser(context.db, request, settings);
  memo.set(context, { cookie, method, user });
  return user;
}

function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
}

/** The signed-in member; a visitor is sent to /login and comes back here afterwards. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) throw loginRedirect(request);
  return user;
}

/** A member whose profile is complete; otherwise /aditionaldata first (§4). */
export async function requireProfile(
  request: Request,
  context: AppLoadContext,
): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!hasCompletedProfile(user)) {
    const url = new URL(request.url);
    throw redirect(`/aditionaldata?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

/**
 * An admin (isAdmin on the profile, read on every request). A visitor goes to /login and comes
 * back; a member is refused: pages send them to /inicio with 'Acceso denegado. No eres un
 * administrador.', other requests (form posts, streams) get a 403.
 */
export async function requireAdmin(
  request: Request,
  context: AppLoadContext,
): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (mayAdminister(user)) return user;
  refuse(request, context, "accessDenied");
}

function refuse(request: Request, context: AppLoadContext, key: MessageKey): never {
  if (request.method === "GET" || request.method === "HEAD") {
    throw redirectWithFlash(context, "/inicio", key);
  }
  throw data(MESSAGES[key], { status: 403 });
}

const holders = new WeakMap<
  AppLoadContext,
  { cookie: string | null; found: Promise<HolderLookup> }
>();

/**
 * The staff link this request's phone opened (docs/decisions/041-staff-links.md), read with the
 * link on every request: a revoked or expired link gives its refusal instead of a holder.
 */
export function getLinkHolder(request: Request, context: AppLoadContext): Promise<HolderLookup> {
  const cookie = request.headers.get("Cookie");
  const known = holders.get(context);
  if (known && known.cookie === cookie) return known.found;
  const found = linkHolderOf(
    context.db,
    context.config.sessionSecret,
    request,
    cookieSettings(context),
    context.now(),
  );
  holders.set(context, { cookie, found });
  return found;
}

/**
 * A staff link's holder asked for something: the capability table refuses them all but their
 * event's check-in (a 403 page or answer in Spanish), and a revoked or expired link says so.
 */
function refuseHolder(found: Exclude<HolderLookup, null>, action: Action, scope: Scope): never {
  if ("refusal" in found) throw data(found.refusal.message, { status: found.refusal.status });
  try {
    assertMay(found.holder, action, scope);
  } catch (error) {
    if (error instanceof NotAllowedError) {
      const message =
        error.message === MESSAGES.outsideDoorWindow
          ? error.message
          : MESSAGES.staffLinkOnlyCheckIn;
      throw data(message, { status: 403 });
    }
    throw error;
  }
  // Allowed by the table, but this page is for members only.
  throw data(MESSAGES.staffLinkOnlyCheckIn, { status: 403 });
}

/**
 * Someone the capability table allows `action` on `scope`: a signed-in member (an admin, or a
 * role in scope), or the holder of a staff link for its event's check-in. A visitor goes to
 * /login. Only the check-in pages take a holder; every other page uses requireMay.
 */
export async function requireEventActor(
  request: Request,
  context: AppLoadContext,
  action: Action,
  eventId: string | undefined,
  { anyTime = false }: { anyTime?: boolean } = {},
): Promise<SessionUser | LinkHolder> {
  const now = context.now();
  const scope = (await eventScope(context.db, eventId, now)) ?? { eventId: eventId ?? "", now };
  // `anyTime`: a page that says itself when its door opens takes door staff outside their hours.
  const allows = (actor: SessionUser | LinkHolder) =>
    anyTime ? mayAnyTime(actor, action, scope) : may(actor, action, scope);
  const user = await getUser(request, context);
  if (user && allows(user)) return user;
  const found = await getLinkHolder(request, context);
  if (found && "holder" in found && allows(found.holder)) return found.holder;
  if (user || !found) return requireMay(request, context, action, scope);
  refuseHolder(found, action, scope);
}

/**
 * A member the capability table allows `action` on `scope` (an admin, or a role in scope). The
 * model functions ask again; this only chooses the answer a refused page gets, like requireAdmin.
 * A staff link's holder is refused by the same table.
 */
export async function requireMay(
  request: Request,
  context: AppLoadContext,
  action: Action,
  scope: Scope = {},
): Promise<SessionUser> {
  const signedIn = await getUser(request, context);
  if (!signedIn) {
    const found = await getLinkHolder(request, context);
    if (found) refuseHolder(found, action, { now: context.now(), ...scope });
  }
  const user = await requireUser(request, context);
  try {
    assertMay(user, action, { now: context.now(), ...scope });
  } catch (error) {
    if (error instanceof NotAllowedError) {
      const key = (Object.keys(MESSAGES) as MessageKey[]).find(
        (k) => MESSAGES[k] === error.message,
      );
      refuse(request, context, key ?? "accessDenied");
    }
    throw error;
  }
  return user;
}

/** As requireMay, for an action on one event: its dates and door window come from the database. */
export async function requireEventMay(
  request: Request,
  context: AppLoadContext,
  action: Action,
  eventId: string | undefined,
): Promise<SessionUser> {
  const scope = (await eventScope(context.db, eventId, context.now())) ?? {
    eventId: eventId ?? "",
  };
  return requireMay(request, context, action, scope);
}
