// The admin panel's view of members (§2 Admin panel): a paginated, searchable list, one member's
// details with the events they take part in, and granting or revoking admin. Admins only.
import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import { boundedSearch, likePattern, SEARCH_MAX } from "~/kernel/search";
import type { Db } from "~/db/client.server";
import { events, participations, users, type User } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit, auditName } from "~/audit/audit.server";
import { Refusal } from "~/kernel/errors";
import { AdminSeenError, LastAdminError } from "./errors";
import { MEMBER_MESSAGES } from "./messages";

const USERS_PAGE_SIZE = 25;
export { boundedSearch, SEARCH_MAX };

export class UserNotFoundError extends Refusal {
  override name = "UserNotFoundError";
  constructor() {
    super(MEMBER_MESSAGES.userNotFound, 404);
  }
}

/** Members whose name or e-mail contains `search`, admins first, then by name; a page at a time. */
export async function listUsers(
  db: Db,
  actor: Pick<User, "isAdmin"> | null,
  options: { search?: string; page?: number } = {},
) {
  assertMay(actor, "users.read");
  const search = boundedSearch(options.search);
  // No stored text can hold a NUL (PostgreSQL refuses it) and no name or e-mail holds other
  // control characters: such a search matches nobody, without asking the database.
  if (/\p{Cc}/u.test(search)) {
    return {
      users: [],
      total: 0,
      page: 1,
      pageCount: 1,
      search: search.replace(/\p{Cc}/gu, "\uFFFD"),
    };
  }
  const where = search
    ? or(
        sql`lower(${users.email}) like ${likePattern(search)}`,
        sql`lower(coalesce(${users.nombreCompleto}, '')) like ${likePattern(search)}`,
        sql`lower(coalesce(${users.displayName}, '')) like ${likePattern(search)}`,
      )
    : undefined;
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  const total = count?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      nombreCompleto: users.nombreCompleto,
      isAdmin: users.isAdmin,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.isAdmin), asc(users.createdAt), asc(users.id))
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE);
  return { users: rows, total, page, pageCount, search };
}

/** 'Detalles del Usuario': every profile field and the events the member takes part in. */
export async function getUserDetails(db: Db, actor: Pick<User, "isAdmin"> | null, id: unknown) {
  assertMay(actor, "users.read");
  if (!isUuid(id)) return null;
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) return null;
  const joined = await db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      checkedInAt: participations.checkedInAt,
    })
    .from(participations)
    .innerJoin(events, eq(events.id, participations.eventId))
    .where(eq(participations.userId, id))
    .orderBy(asc(events.startsAt));
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    nombreCompleto: user.nombreCompleto,
    fechaNacimiento: user.fechaNacimiento,
    pais: user.pais,
    ciudad: user.ciudad,
    genero: user.genero,
    habilidades: user.habilidades,
    isAdmin: user.isAdmin,
    events: joined,
  };
}

/**
 * Grants or revokes admin. Revoking is refused when it would leave no admin: the admin rows are
 * locked first, so two admins revoking each other at once cannot both succeed.
 */
export async function setAdmin(
  db: Db,
  actor: Pick<User, "id" | "isAdmin" | "displayName" | "nombreCompleto" | "email"> | null,
  userId: unknown,
  isAdmin: boolean,
  seen?: unknown,
): Promise<void> {
  const role = assertMay(actor, "users.setAdmin");
  if (!isUuid(userId)) throw new UserNotFoundError();
  await db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.isAdmin, true))
      .orderBy(asc(users.id))
      .for("update");
    const [target] = await tx
      .select({
        id: users.id,
        isAdmin: users.isAdmin,
        displayName: users.displayName,
        nombreCompleto: users.nombreCompleto,
        email: users.email,
      })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!target) throw new UserNotFoundError();
    // What the screen showed (decision 064): "1" an admin, "0" not one.
    if (seen !== undefined && seen !== "1" && seen !== "0")
      throw new AdminSeenError(MEMBER_MESSAGES.adminSeenMissing, 400);
    if (seen !== undefined && target.isAdmin !== (seen === "1"))
      throw new AdminSeenError(MEMBER_MESSAGES.adminChangedMeanwhile, 409);
    if (target.isAdmin === isAdmin) return;
    if (!isAdmin && admins.length <= 1) throw new LastAdminError(MEMBER_MESSAGES.lastAdmin);
    await tx
      .update(users)
      .set({ isAdmin })
      .where(and(eq(users.id, userId), eq(users.isAdmin, !isAdmin)));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: isAdmin ? "admin.grant" : "admin.revoke",
      itemKind: "user",
      itemId: userId,
      summary: `${isAdmin ? "Hizo administrador(a) a" : "Quitó el permiso de administrador a"} ${auditName(target)}`,
    });
  });
}
