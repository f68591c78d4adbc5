// The treasurer's queue (decision 048): the payments to look at, each with its receipt; 'Confirmar',
// 'Rechazar' with a reason the member reads, 'Beca' (nothing to pay), and the refunds of members
// who left a paid place before the start. Every decision goes to the audit log in its transaction.
import { and, asc, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, payments, users, type User } from "~/db/schema.server";
import { recordAudit, auditName } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";
import { assertMay, type Actor } from "~/kernel/permissions";
import { DELETED_ACCOUNT } from "~/members/messages";
import { formatBs } from "./money";
import { PaymentNotFoundError } from "./payment.server";
import { queuePaymentMail } from "./mails.server";
import { PAYMENT_MESSAGES } from "./messages";

type Person =
  | (Actor & Pick<User, "id"> & Partial<Pick<User, "displayName" | "nombreCompleto" | "email">>)
  | null;

/** A decision that does not fit the payment's state now (decided by someone else, expired). */
export class PaymentStateError extends Refusal {
  override name = "PaymentStateError";
  constructor(message: string, status: 400 | 409 = 409) {
    super(message, status);
  }
}

/**
 * A decision taken over a payment whose state is no longer the one the treasurer's screen showed:
 * someone else decided it meanwhile. Nothing is changed and no mail goes; the message says what
 * the payment is now and who made it so.
 */
export class PaymentConflictError extends Refusal {
  override name = "PaymentConflictError";
  constructor(status: string, by: string | null) {
    super(
      `Otra persona de tesorería decidió este pago mientras lo mirabas: ahora está «${STATUS_NAMES[status] ?? status}»${by ? ` (${by})` : ""}. Tu decisión no se aplicó; revisa el pago y decide de nuevo si hace falta.`,
      409,
    );
  }
}

/** The queue's views. */
export const QUEUE_VIEWS = {
  revisar: "Por revisar",
  pendientes: "Sin pago todavía",
  confirmados: "Confirmados y becas",
  reembolsos: "Reembolsos",
  todos: "Todos",
} as const;
export type QueueView = keyof typeof QUEUE_VIEWS;

export function isQueueView(value: unknown): value is QueueView {
  return typeof value === "string" && Object.hasOwn(QUEUE_VIEWS, value);
}

/** A payment's state as the queue, the CSV and the member's page name it. */
export const STATUS_NAMES: Record<string, string> = {
  pending: "Pendiente de pago",
  submitted: "Por revisar",
  refused: "Rechazado",
  confirmed: "Confirmado",
  waived: "Beca",
  expired: "Vencido",
  cancelled: "Cancelado",
  refunded: "Reembolsado",
};

function viewWhere(view: QueueView): SQL | undefined {
  switch (view) {
    case "revisar":
      return eq(payments.status, "submitted");
    case "pendientes":
      return inArray(payments.status, ["pending", "refused"]);
    case "confirmados":
      return inArray(payments.status, ["confirmed", "waived"]);
    case "reembolsos":
      return and(isNotNull(payments.leftAt), inArray(payments.status, ["confirmed", "refunded"]));
    case "todos":
      return undefined;
  }
}

const QUEUE_MAX = 500;

/** The payments of a view, with who pays and for what: the receipts first sent first. */
export async function listPayments(db: Db, actor: Person, view: QueueView) {
  assertMay(actor, "payments.review");
  return db
    .select({
      id: payments.id,
      reference: payments.reference,
      status: payments.status,
      amountCents: payments.amountCents,
      heldUntil: payments.heldUntil,
      submittedAt: payments.submittedAt,
      hasReceipt: sql<boolean>`${payments.receiptFile} is not null`,
      // A PDF stored before PDFs were drawn (decision 061) is a download; anything else a picture.
      receiptIsPdf: sql<boolean>`coalesce(${payments.receiptFile} like '%.pdf', false)`,
      transactionNumber: payments.transactionNumber,
      decidedAt: payments.decidedAt,
      decidedByName: payments.decidedByName,
      refusalReason: payments.refusalReason,
      leftAt: payments.leftAt,
      refundedAt: payments.refundedAt,
      refundNote: payments.refundNote,
      // A payer who deleted their account leaves the payment that took money, without them.
      name: sql<string>`coalesce(${users.nombreCompleto}, ${users.displayName}, ${users.email}, ${DELETED_ACCOUNT})`,
      email: sql<string>`coalesce(${users.email}, '')`,
      eventId: events.id,
      // A team's fee (decision 052) names the team beside its event.
      nombreEvento: sql<string>`${events.nombreEvento} || coalesce(' — equipo «' || (select t.name from competition_teams t where t.id = ${payments.teamId}) || '»', '')`,
      startsAt: events.startsAt,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .innerJoin(events, eq(events.id, payments.eventId))
    .where(viewWhere(view))
    .orderBy(asc(sql`coalesce(${payments.submittedAt}, ${payments.createdAt})`), asc(payments.id))
    .limit(QUEUE_MAX);
}

export type Decision = "confirm" | "refuse" | "waive";

const DECIDED: Record<Decision, string> = {
  confirm: "confirmed",
  refuse: "refused",
  waive: "waived",
};

/** Which states each decision may be taken from. */
const FROM: Record<Decision, readonly string[]> = {
  confirm: ["pending", "submitted", "refused"],
  // A refusal answers something sent.
  refuse: ["submitted"],
  waive: ["pending", "submitted", "refused"],
};

export const REASON_MAX = 500;
const HOUR = 3_600_000;

/**
 * 'Confirmar', 'Rechazar' (with the reason the member reads) or 'Beca'. The event row is locked
 * first, then the payment (the order of joins and of the expiry of holds), and the state read
 * again: a hold that expired meanwhile is not confirmed, a decided one not decided twice. A
 * refusal holds the place again for the event's hold hours, for the member to send a good one.
 */
export async function decidePayment(
  db: Db,
  actor: Person,
  paymentId: unknown,
  decision: Decision,
  reason: string | null = null,
  now: Date = new Date(),
  seen?: unknown,
): Promise<void> {
  const role = assertMay(actor, "payments.review");
  if (!isUuid(paymentId)) throw new PaymentNotFoundError();
  if (decision === "refuse" && !reason?.trim())
    throw new PaymentStateError("Escribe el motivo del rechazo: la persona lo leerá.");
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ eventId: payments.eventId })
      .from(payments)
      .where(eq(payments.id, paymentId));
    if (!found) throw new PaymentNotFoundError();
    const [event] = await tx
      .select({ nombreEvento: events.nombreEvento, holdHours: events.holdHours })
      .from(events)
      .where(eq(events.id, found.eventId))
      .for("update");
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, paymentId))
      .for("update");
    if (!payment || !event) throw new PaymentNotFoundError();
    // The state the treasurer's screen showed (decision 064).
    if (seen !== undefined && (typeof seen !== "string" || !Object.hasOwn(STATUS_NAMES, seen)))
      throw new PaymentStateError(PAYMENT_MESSAGES.seenMissing, 400);
    if (seen !== undefined && payment.status !== seen)
      throw new PaymentConflictError(payment.status, payment.decidedByName);
    if (!FROM[decision].includes(payment.status))
      throw new PaymentStateError(
        `Este pago ya está ${STATUS_NAMES[payment.status]?.toLowerCase() ?? payment.status}: no se puede ${decision === "confirm" ? "confirmar" : decision === "refuse" ? "rechazar" : "becar"}.`,
      );
    await tx
      .update(payments)
      .set({
        status: DECIDED[decision],
        decidedAt: now,
        decidedBy: actor!.id,
        decidedByName: auditName(actor!),
        refusalReason: decision === "refuse" ? reason!.trim() : null,
        heldUntil: decision === "refuse" ? new Date(now.getTime() + event.holdHours * HOUR) : null,
      })
      .where(eq(payments.id, paymentId));
    await queuePaymentMail(
      tx,
      decision === "refuse" ? "paymentRefused" : "paymentConfirmed",
      payment.id,
    );
    const [payer] = payment.userId
      ? await tx
          .select({
            name: sql<string>`coalesce(${users.nombreCompleto}, ${users.displayName}, ${users.email})`,
          })
          .from(users)
          .where(eq(users.id, payment.userId))
      : [];
    const what =
      decision === "confirm"
        ? "Confirmó el pago"
        : decision === "refuse"
          ? "Rechazó el pago"
          : "Dio una beca por el pago";
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: `payments.${decision}`,
      itemKind: "payment",
      itemId: payment.id,
      summary: `${what} ${payment.reference} (${formatBs(payment.amountCents)}) de ${payer?.name ?? "?"} en «${event.nombreEvento}»${decision === "refuse" ? `: ${reason!.trim()}` : ""}`,
      at: now,
    });
  });
}

export const REFUND_NOTE_MAX = 300;

/**
 * 'Registrar reembolso': the money of a paid place given back to a member who left before the
 * event's start. The note says how (a transfer's number, say).
 */
export async function recordRefund(
  db: Db,
  actor: Person,
  paymentId: unknown,
  note: string,
  now: Date = new Date(),
): Promise<void> {
  const role = assertMay(actor, "payments.review");
  if (!isUuid(paymentId)) throw new PaymentNotFoundError();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ payment: payments, startsAt: events.startsAt, nombreEvento: events.nombreEvento })
      .from(payments)
      .innerJoin(events, eq(events.id, payments.eventId))
      .where(eq(payments.id, paymentId))
      .for("update", { of: payments });
    if (!row) throw new PaymentNotFoundError();
    const { payment } = row;
    if (payment.status !== "confirmed" || !payment.leftAt || payment.leftAt >= row.startsAt)
      throw new PaymentStateError(
        "Solo se registra el reembolso de un pago confirmado de alguien que dejó el evento antes de su inicio.",
      );
    await tx
      .update(payments)
      .set({ status: "refunded", refundedAt: now, refundedBy: actor!.id, refundNote: note })
      .where(eq(payments.id, paymentId));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "payments.refund",
      itemKind: "payment",
      itemId: payment.id,
      summary: `Registró el reembolso de ${payment.reference} (${formatBs(payment.amountCents)}) en «${row.nombreEvento}»${note ? `: ${note}` : ""}`,
      at: now,
    });
  });
}

/** The CSV's rows: every payment, newest event first. */
export async function paymentsCsvRows(db: Db, actor: Person, origin: string) {
  assertMay(actor, "payments.review");
  const rows = await db
    .select({
      id: payments.id,
      // A payer who deleted their account leaves the payment that took money, without them.
      name: sql<string>`coalesce(${users.nombreCompleto}, ${users.displayName}, ${users.email}, ${DELETED_ACCOUNT})`,
      email: sql<string>`coalesce(${users.email}, '')`,
      // A team's fee (decision 052) names the team beside its event.
      nombreEvento: sql<string>`${events.nombreEvento} || coalesce(' — equipo «' || (select t.name from competition_teams t where t.id = ${payments.teamId}) || '»', '')`,
      reference: payments.reference,
      amountCents: payments.amountCents,
      status: payments.status,
      decidedByName: payments.decidedByName,
      decidedAt: payments.decidedAt,
      hasReceipt: sql<boolean>`${payments.receiptFile} is not null`,
      transactionNumber: payments.transactionNumber,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .innerJoin(events, eq(events.id, payments.eventId))
    .orderBy(desc(events.startsAt), asc(payments.createdAt));
  return rows.map((r) => ({
    ...r,
    statusName: STATUS_NAMES[r.status] ?? r.status,
    receiptUrl: r.hasReceipt ? `${origin}/pagos/${r.id}/comprobante` : "",
  }));
}
