// Roles with a scope (docs/decisions/038-roles-and-capabilities.md): admins grant and revoke any;
// an event's organisers grant and revoke its door staff and its categories' judges (decision 057). What each role may do is the capability
// table of kernel/permissions.ts; this file keeps who holds which.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { competitionCategories, events, roleGrants, users, type User } from "~/db/schema.server";
import { recordAudit, auditName } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { EventNotFoundError, Refusal } from "~/kernel/errors";
import { MEMBER_MESSAGES } from "./messages";
import {
  assertMay,
  grantActionFor,
  isEventScoped,
  isGrantableKind,
  isRoleKind,
  may,
  ROLE_KINDS,
  type Actor,
  type Grant,
  type RoleKind,
} from "~/kernel/permissions";
import { UserNotFoundError } from "./admin-users.server";
import { RoleConflictError } from "./errors";
import { ROLE_NOT_SEEN } from "./roles";

export class RoleInputError extends Refusal {
  override name = "RoleInputError";
  constructor(message: string) {
    super(message, 400);
  }
}

type Author = Actor & Pick<User, "id" | "displayName" | "nombreCompleto" | "email">;

/** The grants of one member, read on every request with the session (app/guards.server.ts). */
export async function loadGrants(db: Db, userId: string): Promise<Grant[]> {
  const rows = await db
    .select({
      kind: roleGrants.kind,
      eventId: roleGrants.eventId,
      categoryId: roleGrants.categoryId,
    })
    .from(roleGrants)
    .where(eq(roleGrants.userId, userId));
  return rows.filter((r): r is Grant & { categoryId: string | null } => isGrantableKind(r.kind));
}

interface RoleTarget {
  userId: unknown;
  kind: unknown;
  eventId?: unknown;
  /** A judge's category, of the event. */
  categoryId?: unknown;
}

/** Checks the form's fields, and who may grant or revoke that kind: admins, or for door staff the event's organisers. */
async function resolveTarget(db: Db, actor: Author | null, target: RoleTarget) {
  if (!isGrantableKind(target.kind)) {
    // Still refuse a member first, so that a refusal never tells which kinds exist.
    assertMay(actor, "roles.grant");
    throw new RoleInputError(MEMBER_MESSAGES.roleUnknown);
  }
  const kind: RoleKind = target.kind;
  const scoped = isEventScoped(kind);
  const eventId = scoped ? target.eventId : null;
  // A site-wide role given "for an event" would silently reach every event: refused, never ignored.
  if (!scoped && target.eventId !== undefined && target.eventId !== null && target.eventId !== "") {
    assertMay(actor, "roles.grant");
    throw new RoleInputError(MEMBER_MESSAGES.roleSiteWide);
  }
  if (scoped && (eventId === undefined || eventId === null || eventId === "")) {
    assertMay(actor, "roles.grant");
    throw new RoleInputError(MEMBER_MESSAGES.roleEventMissing);
  }
  if (scoped && !isUuid(eventId)) {
    assertMay(actor, grantActionFor(kind), {});
    throw new EventNotFoundError();
  }
  const role = assertMay(actor, grantActionFor(kind), scoped ? { eventId: eventId as string } : {});
  let eventName: string | null = null;
  if (scoped) {
    const [event] = await db
      .select({ nombreEvento: events.nombreEvento })
      .from(events)
      .where(eq(events.id, eventId as string))
      .limit(1);
    if (!event) throw new EventNotFoundError();
    eventName = event.nombreEvento;
  }
  let categoryId: string | null = null;
  let categoryName: string | null = null;
  if (ROLE_KINDS[kind].scope === "category") {
    const typed = target.categoryId;
    if (typed === undefined || typed === null || typed === "")
      throw new RoleInputError(MEMBER_MESSAGES.roleCategoryMissing);
    const [category] = isUuid(typed)
      ? await db
          .select({ id: competitionCategories.id, name: competitionCategories.name })
          .from(competitionCategories)
          .where(
            and(
              eq(competitionCategories.id, typed),
              eq(competitionCategories.eventId, eventId as string),
            ),
          )
          .limit(1)
      : [];
    if (!category) throw new RoleInputError(MEMBER_MESSAGES.roleCategoryNotFound);
    categoryId = category.id;
    categoryName = category.name;
  }
  if (!isUuid(target.userId)) throw new UserNotFoundError();
  const [member] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      nombreCompleto: users.nombreCompleto,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, target.userId))
    .limit(1);
  if (!member) throw new UserNotFoundError();
  return {
    kind,
    eventId: (eventId as string | null) ?? null,
    eventName,
    categoryId,
    categoryName,
    member,
    role,
  };
}

function roleSummary(
  kind: RoleKind,
  eventName: string | null,
  categoryName: string | null,
): string {
  const what = categoryName
    ? `${ROLE_KINDS[kind].label} de la categoría «${categoryName}»`
    : ROLE_KINDS[kind].label;
  return eventName ? `${what} de «${eventName}»` : what;
}

const sameGrant = (
  userId: string,
  kind: RoleKind,
  eventId: string | null,
  categoryId: string | null,
) =>
  and(
    eq(roleGrants.userId, userId),
    eq(roleGrants.kind, kind),
    eventId === null ? isNull(roleGrants.eventId) : eq(roleGrants.eventId, eventId),
    categoryId === null ? isNull(roleGrants.categoryId) : eq(roleGrants.categoryId, categoryId),
  );

/**
 * Gives a member a role; giving one they hold already changes nothing. With `seen` (decision 064),
 * the screen showed them without it: one given meanwhile by someone else is a conflict.
 */
export async function grantRole(
  db: Db,
  actor: Author | null,
  target: RoleTarget,
  seen?: unknown,
): Promise<void> {
  const t = await resolveTarget(db, actor, target);
  if (seen !== undefined && seen !== ROLE_NOT_SEEN)
    throw new RoleInputError(MEMBER_MESSAGES.roleSeenMissing);
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(roleGrants)
      .values({
        userId: t.member.id,
        kind: t.kind,
        eventId: t.eventId,
        categoryId: t.categoryId,
        grantedBy: actor!.id,
      })
      .onConflictDoNothing()
      .returning({ id: roleGrants.id });
    if (added.length === 0) {
      if (seen !== undefined) throw new RoleConflictError(MEMBER_MESSAGES.roleGrantedMeanwhile);
      return;
    }
    await recordAudit(tx, {
      actor: actor!,
      role: t.role,
      action: "role.grant",
      itemKind: "user",
      itemId: t.member.id,
      summary: `Otorgó ${roleSummary(t.kind, t.eventName, t.categoryName)} a ${auditName(t.member)}`,
    });
  });
}

/**
 * Takes a role back; the holder's next request no longer has it (grants are read per request).
 * With `seen`, the grant the screen showed (its id, decision 064): one taken back meanwhile, or
 * taken back and given again, is a conflict, never a silent second change.
 */
export async function revokeRole(
  db: Db,
  actor: Author | null,
  target: RoleTarget,
  seen?: unknown,
): Promise<void> {
  const t = await resolveTarget(db, actor, target);
  if (seen !== undefined && !isUuid(seen))
    throw new RoleInputError(MEMBER_MESSAGES.roleSeenMissing);
  await db.transaction(async (tx) => {
    const grant = sameGrant(t.member.id, t.kind, t.eventId, t.categoryId);
    const removed = await tx
      .delete(roleGrants)
      .where(seen === undefined ? grant : and(grant, eq(roleGrants.id, seen as string)))
      .returning({ id: roleGrants.id });
    if (removed.length === 0 && seen !== undefined) {
      const [again] = await tx.select({ id: roleGrants.id }).from(roleGrants).where(grant);
      throw new RoleConflictError(
        again ? MEMBER_MESSAGES.roleRegrantedMeanwhile : MEMBER_MESSAGES.roleRevokedMeanwhile,
      );
    }
    if (removed.length === 0) throw new RoleInputError(MEMBER_MESSAGES.roleNotHeld);
    await recordAudit(tx, {
      actor: actor!,
      role: t.role,
      action: "role.revoke",
      itemKind: "user",
      itemId: t.member.id,
      summary: `Retiró ${roleSummary(t.kind, t.eventName, t.categoryName)} a ${auditName(t.member)}`,
    });
  });
}

export interface HeldRole {
  /** The grant's id: what a form to take it back names as the one its screen showed. */
  grantId: string;
  kind: RoleKind;
  label: string;
  eventId: string | null;
  eventName: string | null;
  categoryId: string | null;
  categoryName: string | null;
  startsAt: Date | null;
}

async function heldRoles(db: Db, where: ReturnType<typeof eq>): Promise<HeldRole[]> {
  const rows = await db
    .select({
      grantId: roleGrants.id,
      kind: roleGrants.kind,
      eventId: roleGrants.eventId,
      eventName: events.nombreEvento,
      categoryId: roleGrants.categoryId,
      categoryName: competitionCategories.name,
      startsAt: events.startsAt,
      userId: roleGrants.userId,
    })
    .from(roleGrants)
    .leftJoin(events, eq(events.id, roleGrants.eventId))
    .leftJoin(competitionCategories, eq(competitionCategories.id, roleGrants.categoryId))
    .where(where)
    .orderBy(asc(roleGrants.kind), asc(events.startsAt));
  return rows.flatMap((r) =>
    isRoleKind(r.kind)
      ? [
          {
            grantId: r.grantId,
            kind: r.kind,
            label: ROLE_KINDS[r.kind].label,
            eventId: r.eventId,
            eventName: r.eventName,
            categoryId: r.categoryId,
            categoryName: r.categoryName,
            startsAt: r.startsAt,
          },
        ]
      : [],
  );
}

/** The roles one member holds: for that member (their profile) and for admins (member details). */
export async function rolesOf(db: Db, actor: Actor | null, userId: unknown): Promise<HeldRole[]> {
  if (!(actor?.id !== undefined && actor.id === userId)) assertMay(actor, "users.read");
  if (!isUuid(userId)) return [];
  return heldRoles(db, eq(roleGrants.userId, userId));
}

export interface EventStaffMember {
  grantId: string;
  userId: string;
  name: string;
  email: string;
  kind: RoleKind;
  /** A judge's category. */
  categoryId: string | null;
  categoryName: string | null;
}

/** Who runs one event (its organisers, door staff and judges): for admins and its organisers. */
export async function eventStaff(
  db: Db,
  actor: Actor | null,
  eventId: string,
): Promise<EventStaffMember[]> {
  assertMay(actor, "event.manage", { eventId });
  const rows = await db
    .select({
      grantId: roleGrants.id,
      userId: users.id,
      kind: roleGrants.kind,
      nombreCompleto: users.nombreCompleto,
      displayName: users.displayName,
      email: users.email,
      categoryId: roleGrants.categoryId,
      categoryName: competitionCategories.name,
    })
    .from(roleGrants)
    .innerJoin(users, eq(users.id, roleGrants.userId))
    .leftJoin(competitionCategories, eq(competitionCategories.id, roleGrants.categoryId))
    .where(eq(roleGrants.eventId, eventId))
    .orderBy(
      asc(roleGrants.kind),
      asc(competitionCategories.position),
      asc(sql`lower(coalesce(${users.nombreCompleto}, ${users.email}))`),
    );
  return rows.flatMap((r) =>
    isRoleKind(r.kind)
      ? [
          {
            grantId: r.grantId,
            userId: r.userId,
            name: auditName({ ...r, id: r.userId }),
            email: r.email,
            kind: r.kind,
            categoryId: r.categoryId,
            categoryName: r.categoryName,
          },
        ]
      : [],
  );
}

/** The events this person runs (organiser or door staff), for 'Mis eventos a cargo'. */
export async function eventsInCharge(db: Db, actor: Actor | null) {
  if (!actor?.id) return [];
  const rows = await heldRoles(db, eq(roleGrants.userId, actor.id));
  return rows.filter((r) => r.eventId !== null);
}

/** Members found by name or e-mail, for the event page's 'Dar rol' form: admins and organisers. */
export async function findMemberByEmail(
  db: Db,
  actor: Actor | null,
  eventId: string,
  email: unknown,
) {
  if (!may(actor, "roles.grant") && !may(actor, "event.judges.grant", { eventId }))
    assertMay(actor, "event.door.grant", { eventId });
  if (
    typeof email !== "string" ||
    email.trim() === "" ||
    email.length > 320 ||
    email.includes("\u0000")
  )
    return null;
  const [member] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return member?.id ?? null;
}
