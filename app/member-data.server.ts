// A member's own data: everything held about them, as one JSON document ('Descargar mis datos'),
// and deleting their account ('Eliminar mi cuenta'). Only ever for the signed-in member themselves.
import { and, asc, eq, gt, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { DELETED_ACCOUNT, MEMBER_MESSAGES } from "~/members/messages";
import { LastAdminError, NotSignedInError } from "~/members/errors";
import type { Db } from "~/db/client.server";
import { fillSeats } from "~/events/seats.server";
import { removeUnlessUsed } from "~/payments/payment.server";
import { handOverTeams, teamsOfMember } from "~/competitions/team-hooks.server";
import { forgetInResults } from "~/competitions/judging/accounts.server";
import { entriesByMember, resultsOfMember } from "~/competitions/judging/results.server";
import { awardsOfMember } from "~/competitions/judging/awards.server";
import { inspectionsOfMember } from "~/competitions/door.server";
import type { PrivateStorage } from "~/uploads/storage.server";
import {
  auditLog,
  competitionTeams,
  roleGrants,
  events,
  eventWaitlist,
  mailOutbox,
  notes,
  eventSessions,
  participations,
  teamInspections,
  payments,
  projects,
  sessionAttendance,
  sessionSkips,
  resources,
  sessions,
  signInLinks,
  staffLinks,
  uploadAttempts,
  users,
  type User,
} from "~/db/schema.server";

type Actor = Pick<User, "id"> | null;

function requireActor(actor: Actor): string {
  if (!actor) throw new NotSignedInError();
  return actor.id;
}

/** Everything held about the signed-in member. Session tokens are never part of it. */
export async function exportMemberData(db: Db, actor: Actor, now: Date = new Date()) {
  const id = requireActor(actor);
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw new NotSignedInError();
  const [
    sessionRows,
    joined,
    waitingRows,
    eventRows,
    noteRows,
    resourceRows,
    projectRows,
    mailRows,
    uploadRows,
    roleRows,
    auditRows,
    staffLinkRows,
  ] = await Promise.all([
    db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, id))
      .orderBy(asc(sessions.createdAt)),
    db
      .select({
        eventId: events.id,
        nombreEvento: events.nombreEvento,
        fechaEvento: events.fechaEvento,
        horaEvento: events.horaEvento,
        joinedAt: participations.joinedAt,
        checkedInAt: participations.checkedInAt,
        certificateCode: participations.certificateCode,
      })
      .from(participations)
      .innerJoin(events, eq(events.id, participations.eventId))
      .where(eq(participations.userId, id))
      .orderBy(asc(events.startsAt)),
    db
      .select({
        eventId: events.id,
        nombreEvento: events.nombreEvento,
        createdAt: eventWaitlist.createdAt,
      })
      .from(eventWaitlist)
      .innerJoin(events, eq(events.id, eventWaitlist.eventId))
      .where(eq(eventWaitlist.userId, id))
      .orderBy(asc(events.startsAt)),
    db
      .select({ id: events.id, nombreEvento: events.nombreEvento, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.publishedBy, id))
      .orderBy(asc(events.createdAt)),
    db
      .select({ id: notes.id, titulo: notes.titulo, createdAt: notes.createdAt })
      .from(notes)
      .where(eq(notes.publisher, id))
      .orderBy(asc(notes.createdAt)),
    db
      .select({ id: resources.id, titulo: resources.titulo, createdAt: resources.createdAt })
      .from(resources)
      .where(eq(resources.publisher, id))
      .orderBy(asc(resources.createdAt)),
    db
      .select({ id: projects.id, titulo: projects.titulo, createdAt: projects.createdAt })
      .from(projects)
      .where(eq(projects.publisher, id))
      .orderBy(asc(projects.createdAt)),
    db
      .select({
        tipo: mailOutbox.kind,
        estado: mailOutbox.status,
        eventId: mailOutbox.eventId,
        createdAt: mailOutbox.createdAt,
        sentAt: mailOutbox.sentAt,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, id))
      .orderBy(asc(mailOutbox.createdAt)),
    db
      .select({ createdAt: uploadAttempts.createdAt })
      .from(uploadAttempts)
      .where(eq(uploadAttempts.userId, id))
      .orderBy(asc(uploadAttempts.createdAt)),
    db
      .select({
        kind: roleGrants.kind,
        eventId: roleGrants.eventId,
        nombreEvento: events.nombreEvento,
        createdAt: roleGrants.createdAt,
      })
      .from(roleGrants)
      .leftJoin(events, eq(events.id, roleGrants.eventId))
      .where(eq(roleGrants.userId, id))
      .orderBy(asc(roleGrants.createdAt)),
    // What they did under a role (decision 039).
    db
      .select({
        at: auditLog.at,
        role: auditLog.role,
        action: auditLog.action,
        itemKind: auditLog.itemKind,
        itemId: auditLog.itemId,
        summary: auditLog.summary,
      })
      .from(auditLog)
      .where(eq(auditLog.actorId, id))
      .orderBy(asc(auditLog.at)),
    // The staff links they made (decision 041); the tokens are never kept, so never exported.
    db
      .select({
        eventId: staffLinks.eventId,
        nombreEvento: events.nombreEvento,
        label: staffLinks.label,
        createdAt: staffLinks.createdAt,
        expiresAt: staffLinks.expiresAt,
        revokedAt: staffLinks.revokedAt,
      })
      .from(staffLinks)
      .innerJoin(events, eq(events.id, staffLinks.eventId))
      .where(eq(staffLinks.createdBy, id))
      .orderBy(asc(staffLinks.createdAt)),
  ]);
  // Their payments (decision 048): what they paid for, and how it stands.
  const paymentRows = await db
    .select({
      reference: payments.reference,
      eventId: payments.eventId,
      nombreEvento: events.nombreEvento,
      amountCents: payments.amountCents,
      status: payments.status,
      heldUntil: payments.heldUntil,
      transactionNumber: payments.transactionNumber,
      submittedAt: payments.submittedAt,
      receiptFile: payments.receiptFile,
      refusalReason: payments.refusalReason,
      id: payments.id,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .innerJoin(events, eq(events.id, payments.eventId))
    .where(eq(payments.userId, id))
    .orderBy(asc(payments.createdAt));
  // The competition teams they are in, captain or coach (decision 052).
  const teamRows = await teamsOfMember(db, id);
  // Their teams' places, and what they entered on competition day (decision 057).
  const resultRows = await resultsOfMember(db, id);
  const judgingRows = await entriesByMember(db, id);
  const inspectionRows = await inspectionsOfMember(db, id);
  // Attendance per session (decision 044), listed under each participation.
  const attendanceRows = await db
    .select({
      eventId: sessionAttendance.eventId,
      startsAt: eventSessions.startsAt,
      endsAt: eventSessions.endsAt,
      checkedInAt: sessionAttendance.checkedInAt,
    })
    .from(sessionAttendance)
    .innerJoin(eventSessions, eq(eventSessions.id, sessionAttendance.sessionId))
    .where(eq(sessionAttendance.userId, id))
    .orderBy(asc(eventSessions.startsAt));
  // The sessions they said they will miss (decision 045), also under each participation.
  const skipRows = await db
    .select({
      eventId: sessionSkips.eventId,
      startsAt: eventSessions.startsAt,
      endsAt: eventSessions.endsAt,
      createdAt: sessionSkips.createdAt,
    })
    .from(sessionSkips)
    .innerJoin(eventSessions, eq(eventSessions.id, sessionSkips.sessionId))
    .where(eq(sessionSkips.userId, id))
    .orderBy(asc(eventSessions.startsAt));

  return {
    generadoEl: now.toISOString(),
    perfil: {
      uid: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      displayName: user.displayName,
      photoURL: user.photoURL,
      fotoPropia: user.ownPhotoUrl,
      isAdmin: user.isAdmin,
      nombreCompleto: user.nombreCompleto,
      fechaNacimiento: user.fechaNacimiento,
      pais: user.pais,
      ciudad: user.ciudad,
      genero: user.genero,
      habilidades: user.habilidades,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt?.toISOString() ?? null,
      inicioDeSesion: { issuer: user.issuer, subject: user.subject },
      firebaseUid: user.firebaseUid,
    },
    sesiones: sessionRows.map((s) => ({
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
    })),
    participaciones: joined.map((p) => ({
      eventId: p.eventId,
      nombreEvento: p.nombreEvento,
      fechaEvento: p.fechaEvento,
      horaEvento: p.horaEvento.slice(0, 5),
      joinedAt: p.joinedAt.toISOString(),
      checkedInAt: p.checkedInAt?.toISOString() ?? null,
      // The code of the certificate of attendance; it confirms something only once checked in.
      certificateCode: p.certificateCode,
      asistenciaPorSesion: attendanceRows
        .filter((a) => a.eventId === p.eventId)
        .map((a) => ({
          sesionInicio: a.startsAt.toISOString(),
          sesionFin: a.endsAt.toISOString(),
          checkedInAt: a.checkedInAt.toISOString(),
        })),
      sesionesQueNoIras: skipRows
        .filter((k) => k.eventId === p.eventId)
        .map((k) => ({
          sesionInicio: k.startsAt.toISOString(),
          sesionFin: k.endsAt.toISOString(),
          avisadoEl: k.createdAt.toISOString(),
        })),
    })),
    listasDeEspera: waitingRows.map((w) => ({
      eventId: w.eventId,
      nombreEvento: w.nombreEvento,
      desde: w.createdAt.toISOString(),
    })),
    pagos: paymentRows.map((p) => ({
      referencia: p.reference,
      eventId: p.eventId,
      nombreEvento: p.nombreEvento,
      montoCentavos: p.amountCents,
      estado: p.status,
      reservadaHasta: p.heldUntil?.toISOString() ?? null,
      numeroDeTransaccion: p.transactionNumber,
      enviadoEl: p.submittedAt?.toISOString() ?? null,
      motivoDelRechazo: p.refusalReason,
      // The receipt itself is a download of its own (it may be a photo or a PDF).
      comprobante: p.receiptFile ? `/pagos/${p.id}/comprobante` : null,
      createdAt: p.createdAt.toISOString(),
    })),
    equipos: teamRows,
    resultados: resultRows,
    // Their certificates by place, once a category is final (decision 060).
    certificadosDeCompetencia: await awardsOfMember(db, id),
    anotacionesDeResultados: judgingRows,
    // Their teams' robot inspections (decision 055), without the inspector's name.
    inspeccionesDeRobots: inspectionRows,
    // Whether a private calendar link exists; its secret is never stored, so never exported.
    calendarioPrivado: user.calendarTokenHash !== null,
    // The kinds of mail turned off, and the mails of the last 90 days (docs/decisions/021-mail.md).
    correo: {
      desactivados: user.mailOff,
      correos: mailRows.map((m) => ({
        ...m,
        createdAt: m.createdAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      })),
    },
    // The uploads of about the last minute, kept for the per-minute limit (decision 028).
    subidasRecientes: uploadRows.map((u) => u.createdAt.toISOString()),
    roles: roleRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    auditoria: auditRows.map((a) => ({ ...a, at: a.at.toISOString() })),
    enlacesDeRegistro: staffLinkRows.map((l) => ({
      ...l,
      createdAt: l.createdAt.toISOString(),
      expiresAt: l.expiresAt.toISOString(),
      revokedAt: l.revokedAt?.toISOString() ?? null,
    })),
    publicado: {
      eventos: eventRows.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
      notas: noteRows.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
      recursos: resourceRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      proyectos: projectRows.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    },
  };
}

export { DELETED_ACCOUNT };

/**
 * The audit log after an account is deleted (decision 039): their entries keep what was done but
 * name 'cuenta eliminada', and their name and e-mail leave every summary.
 */
async function forgetInAuditLog(
  tx: Db,
  id: string,
  person: { email: string; nombreCompleto: string | null; displayName: string | null },
) {
  await tx
    .update(auditLog)
    .set({ actorId: null, actorName: DELETED_ACCOUNT })
    .where(eq(auditLog.actorId, id));
  const names = [person.nombreCompleto, person.displayName, person.email]
    .map((n) => n?.trim() ?? "")
    .filter((n) => n.length >= 2)
    // The longest first, so that "Ana Quispe" goes whole before "Ana" would.
    .sort((a, b) => b.length - a.length);
  for (const name of new Set(names)) {
    await tx
      .update(auditLog)
      .set({ summary: sql`replace(${auditLog.summary}, ${name}, ${DELETED_ACCOUNT})` })
      .where(sql`strpos(${auditLog.summary}, ${name}) > 0`);
  }
}

export type MemberData = Awaited<ReturnType<typeof exportMemberData>>;

/**
 * Deletes the signed-in member: profile, sessions, participations, places on waiting lists and
 * counted uploads go (foreign keys cascade), and sign-in links pending for their address; what they published stays, under the publisher name
 * it was published with. Each seat they held in an upcoming event goes to the first person waiting, as when
 * someone leaves. The last admin cannot go: admin rows are locked first, so two admins deleting
 * themselves at once leave one.
 */
export async function deleteAccount(
  db: Db,
  actor: Actor,
  now: Date = new Date(),
  privateFiles?: PrivateStorage,
): Promise<void> {
  const id = requireActor(actor);
  const receipts = await db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.isAdmin, true))
      .orderBy(asc(users.id))
      .for("update");
    const isAdmin = admins.some((a) => a.id === id);
    if (isAdmin && admins.length === 1)
      throw new LastAdminError(MEMBER_MESSAGES.accountDeleteLastAdmin);
    // The events not ended (eventState) whose seat frees, locked in one order so that concurrent
    // joins and leaves wait.
    const seated = await tx
      .select({ id: events.id, capacity: events.capacity })
      .from(participations)
      .innerJoin(events, eq(events.id, participations.eventId))
      .where(and(eq(participations.userId, id), gt(events.endsAt, now)))
      .orderBy(asc(events.id))
      .for("update", { of: events });
    const receiptRows = await tx
      .select({ receiptFile: payments.receiptFile })
      .from(payments)
      .where(eq(payments.userId, id));
    const [person] = await tx
      .select({
        email: users.email,
        nombreCompleto: users.nombreCompleto,
        displayName: users.displayName,
      })
      .from(users)
      .where(eq(users.id, id));
    // Before the row goes: its foreign key would null the entries' author first.
    if (person) await forgetInAuditLog(tx, id, person);
    // Their teams (decision 052): a team they captain passes to its oldest other member, or is
    // withdrawn when none is left; a team they coach loses its coach.
    await handOverTeams(tx, id, now);
    // The teams they reviewed as organiser keep the decision, under 'cuenta eliminada'.
    await tx
      .update(competitionTeams)
      .set({ reviewedByName: DELETED_ACCOUNT })
      .where(eq(competitionTeams.reviewedBy, id));
    // The robots they inspected at a door keep the result, under 'cuenta eliminada' (decision 055).
    await tx
      .update(teamInspections)
      .set({ inspectedByName: DELETED_ACCOUNT })
      .where(eq(teamInspections.inspectedBy, id));
    // The payments they decided as treasurer keep the decision, under 'cuenta eliminada'.
    await tx
      .update(payments)
      .set({ decidedByName: DELETED_ACCOUNT })
      .where(eq(payments.decidedBy, id));
    // The results they entered or decided stay, under 'cuenta eliminada' (decision 057).
    await forgetInResults(tx, id, DELETED_ACCOUNT);
    // The staff links they made stay (they may be in use at a door), under 'cuenta eliminada'.
    await tx
      .update(staffLinks)
      .set({ createdBy: null, createdByName: DELETED_ACCOUNT })
      .where(eq(staffLinks.createdBy, id));
    // Their payments (decision 056): one that took money stays as the community's record of it,
    // without them or their receipt; a paid place of an event not over is left, so its refund
    // shows in the treasurer's list. The others go with the account.
    await tx
      .update(payments)
      .set({ leftAt: now })
      .where(
        and(
          eq(payments.userId, id),
          eq(payments.status, "confirmed"),
          isNull(payments.leftAt),
          inArray(
            payments.eventId,
            tx.select({ id: events.id }).from(events).where(gt(events.endsAt, now)),
          ),
        ),
      );
    await tx
      .update(payments)
      .set({ receiptFile: null })
      .where(and(eq(payments.userId, id), inArray(payments.status, ["confirmed", "refunded"])));
    await tx
      .delete(payments)
      .where(and(eq(payments.userId, id), notInArray(payments.status, ["confirmed", "refunded"])));
    const deleted = await tx
      .delete(users)
      .where(eq(users.id, id))
      .returning({ id: users.id, email: users.email });
    if (deleted.length === 0) throw new NotSignedInError();
    // A sign-in link still pending for their address would make a new account: it goes too.
    await tx
      .delete(signInLinks)
      .where(sql`${signInLinks.email} = lower(trim(${deleted[0]!.email}))`);
    for (const event of seated) await fillSeats(tx, event, now);
    // Their receipts go from the private store once this commits (decision 048).
    return receiptRows.flatMap((r) => (r.receiptFile ? [r.receiptFile] : []));
  });
  if (privateFiles) for (const name of receipts) await removeUnlessUsed(db, privateFiles, name);
}
