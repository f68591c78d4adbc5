// Who may do what: the one place that answers "may this person do this to that"
// (docs/decisions/038-roles-and-capabilities.md). Every model function that reads something
// restricted or changes anything asks here, on every call; routes ask too, to choose a redirect or
// a 403 (app/guards.server.ts).
import type { User } from "~/db/schema.server";
import { Refusal } from "~/kernel/errors";
import { KERNEL_MESSAGES } from "./messages";

export class NotAllowedError extends Refusal {
  override name = "NotAllowedError";
  constructor(message: string = KERNEL_MESSAGES.accessDenied) {
    super(message, 403);
  }
}

/**
 * The kinds of role a member can be given. `scope` says what one grant is tied to: one event, or
 * the whole site. `window`: the role works only around its event's dates (door staff). Later
 * issues add their kinds here (judge) and their actions to CAPABILITIES.
 */
export const ROLE_KINDS = {
  organiser: { scope: "event", window: false, grantable: true, label: "Organización del evento" },
  editor: { scope: "site", window: false, grantable: true, label: "Edición de notas y proyectos" },
  door: { scope: "event", window: true, grantable: true, label: "Registro de entrada" },
  // The community's payments (decision 048): the way to pay, and later the payments themselves.
  treasurer: { scope: "site", window: false, grantable: true, label: "Tesorería" },
  // Whoever opened a staff link of the event (decision 041): no account, never granted to a member.
  doorLink: { scope: "event", window: true, grantable: false, label: "Enlace de registro" },
  // Competition day (decision 057): enters the results of one category of one event.
  judge: { scope: "category", window: false, grantable: true, label: "Jurado" },
} as const satisfies Record<
  string,
  { scope: "event" | "site" | "category"; window: boolean; grantable: boolean; label: string }
>;

export type RoleKind = keyof typeof ROLE_KINDS;
export const ROLE_KIND_NAMES = Object.keys(ROLE_KINDS) as RoleKind[];

export function isRoleKind(value: unknown): value is RoleKind {
  return typeof value === "string" && Object.hasOwn(ROLE_KINDS, value);
}

/** The kinds an admin or organiser can give a member (not a staff link's). */
export function isGrantableKind(value: unknown): value is RoleKind {
  return isRoleKind(value) && ROLE_KINDS[value].grantable;
}

/**
 * One role a person holds: the kind, the event for kinds scoped to one, and for a judge also the
 * category (of that event).
 */
export interface Grant {
  kind: RoleKind;
  eventId: string | null;
  categoryId?: string | null;
}

/** Whether a kind is tied to one event (or to one category of one event, which names its event too). */
export function isEventScoped(kind: RoleKind): boolean {
  return ROLE_KINDS[kind].scope !== "site";
}

/**
 * The capability table: each action, and the roles besides admin that may do it. Admins may do
 * everything. An action on an event is in scope for a role only when the grant is for that event.
 */
export const CAPABILITIES = {
  // The site as a whole: admins only.
  "users.read": [],
  "users.setAdmin": [],
  "roles.grant": [],
  "site.edit": [],
  "audit.read": [],
  "events.list": [],
  "event.create": [],
  "event.delete": [],
  // Schools and universities of the competitions' teams: merging duplicates (decision 052).
  "schools.merge": [],
  // One event: its organisers, and for check-in its door staff within the window.
  "event.manage": ["organiser"],
  "event.edit": ["organiser"],
  "event.gallery": ["organiser"],
  "event.participants": ["organiser"],
  "event.message": ["organiser"],
  "event.checkIn": ["organiser", "door", "doorLink"],
  "event.door.grant": ["organiser"],
  "event.staffLinks": ["organiser"],
  "event.door.window": ["organiser"],
  // A competition's categories (decision 051): add, change, reorder, delete.
  "event.competition": ["organiser"],
  // Its teams (decision 052): see them all with names and e-mails, approve or reject, the CSV.
  "event.teams": ["organiser"],
  // Competition day (decision 057): give and take back a category's judges.
  "event.judges.grant": ["organiser"],
  // Results: draw or seed a bracket, correct an entry, decide a conflict, mark final or reopen.
  "event.judging": ["organiser"],
  // Enter a category's results (runs, rounds, score sheets): its judges, and the event's organisers.
  "category.judge": ["organiser", "judge"],
  // Its robots' inspections at the door (decision 055): door staff within their window too, but
  // not a staff link's holder, who has no name to sign a decision that can keep a team out.
  "event.inspect": ["organiser", "door"],
  // Notes, resources and projects (/projectsandnotes).
  "publications.manage": ["editor"],
  // Images for events, galleries and publications (not one event's: an image is uploaded first).
  "uploads.images": ["organiser", "editor"],
  // The site's way to pay: the bank's QR, the account holder, bank and instructions (decision 048).
  "payments.setup": ["treasurer"],
  // Everyone's payments and receipts (a member reads their own without a role).
  "payments.receipts": ["treasurer"],
  // The queue: confirm, refuse, waive, record refunds, the CSV.
  "payments.review": ["treasurer"],
} as const satisfies Record<string, readonly RoleKind[]>;

export type Action = keyof typeof CAPABILITIES;
export const ACTIONS = Object.keys(CAPABILITIES) as Action[];

/** Whether an action is about one event (and so needs the event in its scope). */
export function isEventAction(action: Action): boolean {
  return (action.startsWith("event.") && action !== "event.create") || isCategoryAction(action);
}

/** Whether an action is about one category of an event (and so needs both in its scope). */
export function isCategoryAction(action: Action): boolean {
  return action.startsWith("category.");
}

/** An event's dates and its door window, for the roles that only work around them. */
export interface EventWindow {
  startsAt: Date;
  endsAt: Date;
  doorHoursBefore: number;
  doorHoursAfter: number;
}

/** What an action is done to: the event (with its window where a role needs it), and when. */
export interface Scope {
  eventId?: string;
  /** The category, for a category's actions (a judge's grant is for one). */
  categoryId?: string;
  window?: EventWindow;
  now?: Date;
}

/** The person asking, as every model function receives them: the admin flag and their grants. */
export type Actor = Pick<User, "isAdmin"> & { id?: string; grants?: readonly Grant[] };

const HOUR = 3_600_000;

/** Whether `now` is within the door window of an event (3 h before to 6 h after by default). */
export function withinDoorWindow(window: EventWindow, now: Date): boolean {
  const t = now.getTime();
  return (
    t >= window.startsAt.getTime() - window.doorHoursBefore * HOUR &&
    t <= window.endsAt.getTime() + window.doorHoursAfter * HOUR
  );
}

/**
 * Whether a grant lets its holder do this action to this scope. `anyTime`: a role that works only
 * within its event's window counts outside it too (see mayAnyTime).
 */
function grantAllows(grant: Grant, action: Action, scope: Scope, anyTime = false): boolean {
  const roles: readonly RoleKind[] = CAPABILITIES[action];
  if (!roles.includes(grant.kind)) return false;
  const kind = ROLE_KINDS[grant.kind];
  if (kind.scope !== "site" && isEventAction(action)) {
    if (!scope.eventId || grant.eventId !== scope.eventId) return false;
    if (kind.scope === "category" && (!scope.categoryId || grant.categoryId !== scope.categoryId))
      return false;
    if (kind.window && !anyTime) {
      if (!scope.window) return false;
      if (!withinDoorWindow(scope.window, scope.now ?? new Date())) return false;
    }
  }
  return true;
}

/**
 * The role under which this person may do `action` to `scope`: "admin", a role kind, or null when
 * they may not (nobody signed in, or no grant covers it).
 */
export function roleFor(
  actor: Actor | null | undefined,
  action: Action,
  scope: Scope = {},
): "admin" | RoleKind | null {
  if (!actor) return null;
  if (actor.isAdmin === true) return "admin";
  for (const grant of actor.grants ?? []) {
    if (grantAllows(grant, action, scope)) return grant.kind;
  }
  return null;
}

/** Whether this person may do `action` to `scope`. */
export function may(actor: Actor | null | undefined, action: Action, scope: Scope = {}): boolean {
  return roleFor(actor, action, scope) !== null;
}

/**
 * Whether this person may do `action` to `scope` at some time: a role that works only within its
 * event's window (door staff) counts outside it too. A link to a page that itself says when it
 * opens asks this (the door's 'Registro de entrada'); the page and every command ask `may`.
 */
export function mayAnyTime(
  actor: Actor | null | undefined,
  action: Action,
  scope: Pick<Scope, "eventId" | "categoryId"> = {},
): boolean {
  if (!actor) return false;
  if (actor.isAdmin === true) return true;
  return (actor.grants ?? []).some((grant) => grantAllows(grant, action, scope, true));
}

/**
 * Whether one of this person's grants of `kind` lets them do `action` to `scope`: a link meant for
 * that role (a judge's 'Anotar resultados'), which admins and other roles reach another way.
 */
export function mayAs(
  actor: Actor | null | undefined,
  kind: RoleKind,
  action: Action,
  scope: Scope = {},
): boolean {
  return (actor?.grants ?? []).some(
    (grant) => grant.kind === kind && grantAllows(grant, action, scope),
  );
}

/**
 * The grants under which this person may do `action` to their own event (and category), at some
 * time: where the menu's entries for a role lead. Admins may everything without a grant; this
 * lists grants only.
 */
export function grantsAllowing(actor: Actor | null | undefined, action: Action): Grant[] {
  return (actor?.grants ?? []).filter((grant) =>
    grantAllows(
      grant,
      action,
      { eventId: grant.eventId ?? undefined, categoryId: grant.categoryId ?? undefined },
      true,
    ),
  );
}

/** The capability that gives or takes back a kind: admins any; organisers door staff and judges. */
export function grantActionFor(kind: RoleKind): Action {
  return kind === "door"
    ? "event.door.grant"
    : kind === "judge"
      ? "event.judges.grant"
      : "roles.grant";
}

/** The person must be allowed; returns the role they act under, for the audit log. */
export function assertMay(
  actor: Actor | null | undefined,
  action: Action,
  scope: Scope = {},
): "admin" | RoleKind {
  const role = roleFor(actor, action, scope);
  if (role === null) {
    // A door grant for this event, outside its window, says why.
    const door = actor?.grants?.find(
      (g) =>
        ROLE_KINDS[g.kind].window && g.eventId === scope.eventId && scope.eventId !== undefined,
    );
    throw new NotAllowedError(
      door && (CAPABILITIES[action] as readonly RoleKind[]).includes(door.kind)
        ? KERNEL_MESSAGES.outsideDoorWindow
        : (actor?.grants?.length ?? 0) > 0
          ? KERNEL_MESSAGES.notAllowed
          : KERNEL_MESSAGES.accessDenied,
    );
  }
  return role;
}

/** Whether this person holds any role that opens something of one event (its management page). */
export function hasEventRole(actor: Actor | null | undefined, eventId: string): boolean {
  return actor?.grants?.some((g) => g.eventId === eventId) === true;
}

/**
 * Whether this person may administer the site: publish and delete events, see members' details,
 * grant or revoke admin and roles (§6).
 */
export function mayAdminister(actor: Pick<User, "isAdmin"> | null | undefined): boolean {
  return actor?.isAdmin === true;
}

/** The acting person must be a signed-in admin; anyone else (or nobody) is refused. */
export function assertAdmin<T extends Pick<User, "isAdmin">>(
  actor: T | null | undefined,
): asserts actor is T {
  if (!mayAdminister(actor)) throw new NotAllowedError();
}
