// Certificates by place (decision 060). Once a category's results are final,
// every member of a team in its ranking has one: '1er lugar', '2do lugar' and '3er lugar' for the
// first three places (shared places included), 'Participación' for the rest. Its code is made the
// first time anyone needs it and kept (award_certificates); the place it states is always the
// category's final ranking as it is read, so a category reopened proves nothing until it is final
// again, and a correction before that changes what its certificates say.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  awardCertificates,
  competitionCategories,
  events,
  teamMembers,
  users,
} from "~/db/schema.server";
import {
  CertificateRefusedError,
  formatCertificateCode,
  type AwardFacts,
  type Certificate,
} from "~/attendance/certificate.server";
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import { isUuid } from "~/kernel/checks";
import { may, type Grant } from "~/kernel/permissions";
import type { User } from "~/db/schema.server";
import { COACH_BY_DEFAULT, type Level } from "../categories";
import { JUDGING_MESSAGES } from "./messages";
import { categoryResults, type CategoryResults } from "./results.server";

/** What a certificate by place states: the first three places, or taking part. */
export function placeLabel(place: number | null): string {
  if (place === 1) return "1er lugar";
  if (place === 2) return "2do lugar";
  if (place === 3) return "3er lugar";
  return "Participación";
}

export interface Award {
  userId: string;
  /** The member's full name, as on the certificate (null: the profile has none). */
  name: string | null;
  /** 'YYYY-MM-DD', when the profile has it: a minor is named 'Ana Q.' on the public page. */
  birthDate: string | null;
  code: string;
}

export interface TeamAwards {
  teamId: string;
  team: string;
  place: number | null;
  label: string;
  members: Award[];
}

const fullName = sql<
  string | null
>`coalesce(nullif(trim(${users.nombreCompleto}), ''), nullif(trim(${users.displayName}), ''))`;

/**
 * The certificates of a final category, team by team in ranking order, making the codes that do
 * not exist yet; null while the category is not final (or does not exist).
 */
export async function awardsOf(
  db: Db,
  categoryId: unknown,
  known?: CategoryResults | null,
): Promise<TeamAwards[] | null> {
  const results = known ?? (await categoryResults(db, categoryId));
  if (!results || !results.category.final) return null;
  const teamIds = results.rows.map((r) => r.teamId);
  if (teamIds.length === 0) return [];
  const members = await db
    .select({
      teamId: teamMembers.teamId,
      userId: teamMembers.userId,
      name: fullName,
      birthDate: users.fechaNacimiento,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(eq(teamMembers.categoryId, results.category.id), inArray(teamMembers.teamId, teamIds)),
    )
    .orderBy(teamMembers.joinedAt, teamMembers.userId);
  const codesNow = () =>
    db
      .select({
        userId: awardCertificates.userId,
        teamId: awardCertificates.teamId,
        code: awardCertificates.code,
      })
      .from(awardCertificates)
      .where(eq(awardCertificates.categoryId, results.category.id));
  let codes = await codesNow();
  // Written only when something is missing or moved: a page that shows them writes nothing else.
  const missing = members.filter((m) => !codes.some((c) => c.userId === m.userId));
  const moved = members.filter((m) =>
    codes.some((c) => c.userId === m.userId && c.teamId !== m.teamId),
  );
  if (missing.length > 0)
    await db
      .insert(awardCertificates)
      .values(
        missing.map((m) => ({
          categoryId: results.category.id,
          teamId: m.teamId,
          userId: m.userId,
        })),
      )
      // Two first views at once: the second adds nothing.
      .onConflictDoNothing({ target: [awardCertificates.categoryId, awardCertificates.userId] });
  // A member keeps their code when they moved teams before the final.
  for (const m of moved)
    await db
      .update(awardCertificates)
      .set({ teamId: m.teamId })
      .where(
        and(
          eq(awardCertificates.categoryId, results.category.id),
          eq(awardCertificates.userId, m.userId),
        ),
      );
  if (missing.length > 0) codes = await codesNow();
  const codeOf = new Map(codes.map((c) => [c.userId, c.code]));
  return results.rows.map((row) => ({
    teamId: row.teamId,
    team: row.team,
    place: row.place,
    label: placeLabel(row.place),
    members: members
      .filter((m) => m.teamId === row.teamId)
      .map((m) => ({
        userId: m.userId,
        name: m.name,
        birthDate: m.birthDate,
        code: codeOf.get(m.userId)!,
      })),
  }));
}

type Actor = (Pick<User, "id" | "isAdmin"> & { grants?: readonly Grant[] }) | null;

async function eventOf(db: Db, categoryId: string) {
  const [row] = await db
    .select({
      event: {
        id: events.id,
        nombreEvento: events.nombreEvento,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        ubicacionEvento: events.ubicacionEvento,
        ubicacionEspecifica: events.ubicacionEspecifica,
        tipoEvento: events.tipoEvento,
        certificateShare: events.certificateShare,
      },
      level: competitionCategories.level,
    })
    .from(competitionCategories)
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(competitionCategories.id, categoryId));
  return row;
}

/** Whether someone born on `birthDate` ('YYYY-MM-DD') is under 18 on `day`. */
function minorOn(birthDate: string | null, day: Date): boolean {
  const born = birthDate?.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (!born) return false;
  const adult = Date.UTC(Number(born[1]) + 18, Number(born[2]) - 1, Number(born[3]));
  return day.getTime() < adult;
}

function certificateOf(
  award: Award,
  team: TeamAwards,
  results: CategoryResults,
  found: NonNullable<Awaited<ReturnType<typeof eventOf>>>,
): Certificate & { award: AwardFacts } {
  return {
    code: award.code,
    nombre: award.name!,
    attendance: { attended: 0, total: 0, hours: 0 },
    event: { ...found.event, certificateShare: found.event.certificateShare ?? 0 },
    award: {
      label: team.label,
      place: team.place,
      category: results.category.name,
      team: team.team,
      // A school level, or a birth date under 18 on the event's first day.
      minors:
        COACH_BY_DEFAULT.includes(found.level as Level) ||
        minorOn(award.birthDate, found.event.startsAt),
    },
  };
}

/**
 * The certificate by place of `userId` in a category, for the member themselves, the event's
 * organisers or an admin. Refused with the reason while the category is not final, to someone
 * whose team has no place in it, and to anyone else.
 */
export async function awardFor(
  db: Db,
  actor: Actor,
  eventId: unknown,
  categoryId: unknown,
  userId: unknown,
): Promise<Certificate & { award: AwardFacts }> {
  if (!actor) throw new CertificateRefusedError(JUDGING_MESSAGES.awardLoginRequired, 403);
  const own = actor.id === userId;
  if (!own && !may(actor, "event.judging", { eventId: String(eventId) }))
    throw new CertificateRefusedError(JUDGING_MESSAGES.awardNotOwn, 403);
  const results = isUuid(categoryId) ? await categoryResults(db, categoryId) : null;
  if (!results || results.category.eventId !== eventId)
    throw new CertificateRefusedError(JUDGING_MESSAGES.categoryNotFound, 404);
  const refusedNobody = () =>
    own
      ? new CertificateRefusedError(JUDGING_MESSAGES.awardNotCompetitor, 403)
      : new CertificateRefusedError(JUDGING_MESSAGES.awardNobody, 404);
  const awards = await awardsOf(db, categoryId, results);
  if (!awards) {
    // Not final yet: who has no team here hears that first.
    const member = isUuid(userId)
      ? results.rows.length > 0 &&
        (
          await db
            .select({ teamId: teamMembers.teamId })
            .from(teamMembers)
            .where(
              and(
                eq(teamMembers.categoryId, results.category.id),
                eq(teamMembers.userId, userId),
                inArray(
                  teamMembers.teamId,
                  results.rows.map((r) => r.teamId),
                ),
              ),
            )
        ).length > 0
      : false;
    if (!member) throw refusedNobody();
    throw new CertificateRefusedError(JUDGING_MESSAGES.awardNotFinal, 403);
  }
  const team = awards.find((t) => t.members.some((m) => m.userId === userId));
  const award = team?.members.find((m) => m.userId === userId);
  if (!team || !award) throw refusedNobody();
  if (!award.name) throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNoName, 409);
  return certificateOf(award, team, results, (await eventOf(db, results.category.id))!);
}

/**
 * What `/certificados/{code}` confirms for a certificate by place: its member, team and place as
 * the category's final results state them now; null while the category is reopened, or when the
 * team no longer has a place in it.
 */
export async function findAward(
  db: Db,
  code: string,
): Promise<(Certificate & { award: AwardFacts }) | null> {
  const [row] = await db
    .select({ categoryId: awardCertificates.categoryId, userId: awardCertificates.userId })
    .from(awardCertificates)
    .where(eq(awardCertificates.code, code));
  if (!row) return null;
  const results = await categoryResults(db, row.categoryId);
  if (!results) return null;
  const awards = await awardsOf(db, row.categoryId, results);
  const team = awards?.find((t) => t.members.some((m) => m.userId === row.userId));
  const award = team?.members.find((m) => m.userId === row.userId);
  if (!team || !award || award.code !== code || !award.name) return null;
  return certificateOf(award, team, results, (await eventOf(db, row.categoryId))!);
}

/** A member's certificates by place (their data download): final categories only. */
export async function awardsOfMember(db: Db, userId: string) {
  return (await competitionResultsOf(db, userId)).flatMap((r) =>
    r.certificate && r.code
      ? [
          {
            evento: r.eventName,
            categoria: r.category,
            certificado: r.certificate,
            codigo: formatCertificateCode(r.code),
          },
        ]
      : [],
  );
}

/**
 * A member's places in competitions, for their profile: every category where one of their teams is
 * ranked, newest event first, with the team's members as the results name them ('Ana Q.') and, once
 * final, what their certificate states.
 */
export async function competitionResultsOf(db: Db, userId: string) {
  const mine = await db
    .select({
      teamId: teamMembers.teamId,
      categoryId: teamMembers.categoryId,
      startsAt: events.startsAt,
    })
    .from(teamMembers)
    .innerJoin(competitionCategories, eq(competitionCategories.id, teamMembers.categoryId))
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(sql`${events.startsAt} desc`, competitionCategories.position);
  const out = [];
  for (const { teamId, categoryId } of mine) {
    const results = await categoryResults(db, categoryId);
    const row = results?.rows.find((r) => r.teamId === teamId);
    if (!results || !row) continue;
    const awards = await awardsOf(db, categoryId, results);
    const award = awards?.find((t) => t.teamId === teamId);
    const theirs = award?.members.find((m) => m.userId === userId);
    out.push({
      eventId: results.category.eventId,
      eventName: results.category.eventName,
      categoryId: results.category.id,
      category: results.category.name,
      teamId,
      team: row.team,
      members: row.members,
      place: row.place,
      final: results.category.final,
      certificate: award && theirs ? award.label : null,
      code: theirs?.code ?? null,
      /** The certificate waits for a name on the profile. */
      needsName: theirs !== undefined && !theirs.name,
    });
  }
  return out;
}
