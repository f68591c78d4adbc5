// The schools and universities teams name (docs/decisions/052-teams.md): found or added by name
// when a team registers, suggested in its form, and merged by an admin when one is typed twice.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { competitionTeams, schools } from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { assertMay } from "~/kernel/permissions";
import { TeamError, type TeamActor } from "./team-places.server";
import { TEAM_MESSAGES } from "./teams";

/** The school of that name (any case), added when it is new. */
export async function schoolId(tx: Tx, name: string): Promise<string> {
  const [known] = await tx
    .select({ id: schools.id })
    .from(schools)
    .where(sql`lower(${schools.name}) = lower(${name})`);
  if (known) return known.id;
  const [made] = await tx
    .insert(schools)
    .values({ name })
    .onConflictDoNothing()
    .returning({ id: schools.id });
  if (made) return made.id;
  const [again] = await tx
    .select({ id: schools.id })
    .from(schools)
    .where(sql`lower(${schools.name}) = lower(${name})`);
  return again!.id;
}

/** The known schools and universities, for the form's suggestions. */
export async function listSchools(db: Db) {
  return db
    .select({ id: schools.id, name: schools.name })
    .from(schools)
    .orderBy(asc(sql`lower(${schools.name})`));
}

/** 'Unir': an admin merges a duplicate school into another; its teams move; audited. */
export async function mergeSchools(db: Db, actor: TeamActor, fromId: unknown, intoId: unknown) {
  const role = assertMay(actor, "schools.merge");
  if (!isUuid(fromId) || !isUuid(intoId)) throw new TeamError(TEAM_MESSAGES.schoolNotFound, 404);
  if (fromId === intoId) throw new TeamError(TEAM_MESSAGES.mergeSame);
  await db.transaction(async (tx) => {
    const found = await tx
      .select()
      .from(schools)
      .where(inArray(schools.id, [fromId, intoId]))
      .orderBy(asc(schools.id))
      .for("update");
    const from = found.find((s) => s.id === fromId);
    const into = found.find((s) => s.id === intoId);
    if (!from || !into) throw new TeamError(TEAM_MESSAGES.schoolNotFound, 404);
    const moved = await tx
      .update(competitionTeams)
      .set({ schoolId: into.id })
      .where(eq(competitionTeams.schoolId, from.id))
      .returning({ id: competitionTeams.id });
    await tx.delete(schools).where(eq(schools.id, from.id));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "competition.school.merge",
      itemKind: "school",
      itemId: into.id,
      summary: `Unió «${from.name}» en «${into.name}» (${moved.length} ${moved.length === 1 ? "equipo" : "equipos"})`,
    });
  });
}

/** The schools with how many teams name each, for the admins' page. */
export async function schoolsWithTeams(db: Db, actor: TeamActor) {
  assertMay(actor, "schools.merge");
  return db
    .select({
      id: schools.id,
      name: schools.name,
      teams: sql<number>`(select count(*)::int from ${competitionTeams} t where t.school_id = ${schools.id})`,
    })
    .from(schools)
    .orderBy(asc(sql`lower(${schools.name})`));
}
