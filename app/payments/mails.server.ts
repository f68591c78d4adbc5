// The mails of a payment's steps (decision 048), queued in the transaction of each step: the
// payment as it is then, with how to pay (the site's payment method at that moment).
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { competitionTeams, paymentMethod, payments } from "~/db/schema.server";
import { queueMail, recipients, type MailKind } from "~/mail/mail.server";

/** Queues `kind` about the payment `paymentId` to its payer. */
export async function queuePaymentMail(
  tx: Db,
  kind: MailKind,
  paymentId: string,
  options: { fromWaitlist?: boolean; dedupeKey?: string } = {},
): Promise<void> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId));
  // A payment outlives its payer only once it took money; nobody is left to write to.
  if (!payment?.userId) return;
  const [method] = await tx.select().from(paymentMethod).where(eq(paymentMethod.id, "site"));
  const [team] = payment.teamId
    ? await tx
        .select({ id: competitionTeams.id, name: competitionTeams.name })
        .from(competitionTeams)
        .where(eq(competitionTeams.id, payment.teamId))
    : [];
  await queueMail(tx, kind, recipients.members([payment.userId]), {
    eventId: payment.eventId,
    dedupeKey: options.dedupeKey,
    data: {
      payment: {
        reference: payment.reference,
        amountCents: payment.amountCents,
        heldUntil: payment.heldUntil?.toISOString() ?? null,
        status: payment.status,
        reason: payment.refusalReason,
        ...(options.fromWaitlist ? { fromWaitlist: true } : {}),
        accountHolder: method?.accountHolder ?? "",
        bank: method?.bank ?? "",
        instructions: method?.instructions ?? "",
        ...(team ? { team } : {}),
      },
    },
  });
}

/**
 * Warns each member whose held place runs out within `hours` of `now` (HOLD_REMINDER_HOURS, 6
 * by default) and who has sent nothing: once per payment and end of hold, however many processes
 * run this. A hold shorter than `hours` (from its start) gets no warning: its first mail said it.
 */
export async function queueDueHoldReminders(db: Db, now: Date, hours: number): Promise<number> {
  const until = new Date(now.getTime() + hours * 3_600_000);
  const due = await db
    .select({ id: payments.id, heldUntil: payments.heldUntil })
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["pending", "refused"]),
        gt(payments.heldUntil, now),
        lte(payments.heldUntil, until),
        sql`coalesce(${payments.decidedAt}, ${payments.createdAt}) <= ${payments.heldUntil} - make_interval(hours => ${hours})`,
      ),
    );
  for (const { id, heldUntil } of due)
    await db.transaction((tx) =>
      queuePaymentMail(tx, "holdExpiring", id, {
        dedupeKey: `holdExpiring:${id}:${heldUntil!.getTime()}`,
      }),
    );
  return due.length;
}
