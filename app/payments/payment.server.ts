// A member's payment for their registration (decision 048): what they see on the payment page,
// what they send (a receipt or the transaction number), and who may read the receipt. The design
// pays for a payable subject — a registration now, a team later — so a team's page reuses this.
import { and, desc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, payments, type Payment, type User } from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { Refusal, type RefusalStatus } from "~/kernel/errors";
import { may, NotAllowedError, type Actor } from "~/kernel/permissions";
import { StorageUnavailableError, type PrivateStorage } from "~/uploads/storage.server";
import type { UploadedFile, UploadLimits } from "~/uploads/upload.server";
import { getPaymentMethod } from "./payment-method.server";
import { processReceipt } from "./receipts.server";
import { queuePaymentMail } from "./mails.server";
import { transactionNumberProblem } from "./schemas";

type Member = Pick<User, "id">;

/** No payment of the member's at that event (never registered, or unknown event). */
export class PaymentNotFoundError extends Refusal {
  override name = "PaymentNotFoundError";
  constructor() {
    super("No tienes una inscripción con pago en este evento.", 404);
  }
}

/** Sending again once a treasurer confirmed, or after the hold ran out. */
export class PaymentClosedError extends Refusal {
  override name = "PaymentClosedError";
  constructor(message: string) {
    super(message, 409);
  }
}

/**
 * Where a bank's payment API would plug in later (decision 048): a QR made for one payment with
 * its amount and reference, and the bank's callback confirming it. Not built: the site shows the
 * community's static QR and a treasurer confirms by hand.
 */
export interface BankGateway {
  /** A QR image (PNG) for this payment, or null to show the community's static QR. */
  qrFor(payment: Pick<Payment, "id" | "reference" | "amountCents">): Promise<Buffer | null>;
  /** The payment the bank's callback confirms, read and checked from its request; null if none. */
  confirmFromCallback(request: Request): Promise<{ reference: string; amountCents: number } | null>;
}

/**
 * What is paid for: the member's registration at the event, or a team's fee (decision 052) that the
 * member pays as its captain (the team's id).
 */
function subject(userId: string, eventId: string, teamId: string | null) {
  return and(
    eq(payments.eventId, eventId),
    eq(payments.userId, userId),
    teamId === null
      ? eq(payments.subjectKind, "registration")
      : and(eq(payments.subjectKind, "team"), eq(payments.teamId, teamId)),
  );
}

/** The member's latest payment for the subject (a live one first), or null. */
async function latestPayment(db: Db, userId: string, eventId: string, teamId: string | null) {
  const [row] = await db
    .select()
    .from(payments)
    .where(subject(userId, eventId, teamId))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ?? null;
}

/** The payment page: the member's payment at the event, the event, and how to pay. */
export async function loadMyPayment(
  db: Db,
  member: Member,
  eventId: unknown,
  teamId: string | null = null,
) {
  if (!isUuid(eventId) || (teamId !== null && !isUuid(teamId))) throw new PaymentNotFoundError();
  const payment = await latestPayment(db, member.id, eventId, teamId);
  if (!payment) throw new PaymentNotFoundError();
  const [event] = await db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
    })
    .from(events)
    .where(eq(events.id, eventId));
  const method = await getPaymentMethod(db);
  return { payment, event: event!, method };
}

/** A payment the member may still send something for: held, or sent and not yet decided. */
async function openPayment(tx: Db, member: Member, eventId: unknown, teamId: string | null) {
  if (!isUuid(eventId) || (teamId !== null && !isUuid(teamId))) throw new PaymentNotFoundError();
  const [payment] = await tx
    .select()
    .from(payments)
    .where(
      and(
        subject(member.id, eventId, teamId),
        inArray(payments.status, ["pending", "submitted", "refused", "confirmed", "waived"]),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .for("update");
  if (!payment) {
    const last = await latestPayment(tx, member.id, eventId, teamId);
    if (!last) throw new PaymentNotFoundError();
    throw new PaymentClosedError(
      last.status === "expired"
        ? "Tu reserva venció y la plaza pasó a otra persona. Si quedan plazas, inscríbete de nuevo."
        : "Esta inscripción ya no está activa.",
    );
  }
  if (payment.status === "confirmed" || payment.status === "waived")
    throw new PaymentClosedError("Tu pago ya está confirmado: no hace falta enviar nada más.");
  return payment;
}

/** The payment form's fields, as the page names them. */
export type PaymentProofField = "comprobante" | "transactionNumber" | "prueba";

export const PROOF_MISSING =
  "Elige la foto o el PDF del comprobante, o escribe el número de transacción.";

/**
 * What was sent cannot be taken: each field's problem, by the name the form gives it ('prueba'
 * when neither was given). Nothing was stored or changed.
 */
export class PaymentProofRefused extends Refusal {
  override name = "PaymentProofRefused";
  constructor(
    readonly fieldErrors: Partial<Record<PaymentProofField, string>>,
    status: RefusalStatus = 400,
  ) {
    super(Object.values(fieldErrors)[0]!, status, { field: Object.keys(fieldErrors)[0] });
  }
}

/** What the member sends for their payment: the receipt, the transaction number, or both. */
export interface PaymentProof {
  receipt: UploadedFile | null;
  /** As typed; blank is none. */
  transactionNumber: string;
}

/**
 * 'Envía tu comprobante' (decision 048): a photo or PDF of the transfer, kept in the private store,
 * or the transaction number the bank's app shows — one of the two is enough, both are kept. Neither,
 * a number that does not read as one or a file that is not a receipt is refused with every field's
 * problem, before anything is stored. A receipt sent before is replaced (and removed). The place
 * stays held until a treasurer decides.
 */
export async function submitPayment(
  db: Db,
  storage: PrivateStorage,
  member: Member,
  eventId: unknown,
  proof: PaymentProof,
  limits: UploadLimits,
  now: Date = new Date(),
  teamId: string | null = null,
): Promise<void> {
  const transactionNumber = proof.transactionNumber.trim();
  if (!proof.receipt && transactionNumber === "")
    throw new PaymentProofRefused({ prueba: PROOF_MISSING });
  // Checked before the file is read, so that nobody's file is stored for nothing.
  await db.transaction((tx) => openPayment(tx, member, eventId, teamId));
  const problems: Partial<Record<PaymentProofField, string>> = {};
  let status: RefusalStatus = 400;
  if (transactionNumber !== "") {
    const problem = transactionNumberProblem(transactionNumber);
    if (problem) problems.transactionNumber = problem;
  }
  let receipt: Awaited<ReturnType<typeof processReceipt>> | null = null;
  if (proof.receipt) {
    try {
      receipt = await processReceipt(proof.receipt, limits);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      problems.comprobante = error.message;
      status = error.status;
    }
  }
  if (Object.keys(problems).length > 0) throw new PaymentProofRefused(problems, status);
  if (receipt) {
    try {
      if (!(await storage.has(receipt.name))) await storage.write(receipt.name, receipt.data);
    } catch (error) {
      console.error("No se pudo guardar un comprobante:", error);
      throw new StorageUnavailableError();
    }
  }
  const previous = await db.transaction(async (tx) => {
    const payment = await openPayment(tx, member, eventId, teamId);
    await tx
      .update(payments)
      .set({
        status: "submitted",
        submittedAt: now,
        heldUntil: null,
        ...(receipt ? { receiptFile: receipt.name } : {}),
        ...(transactionNumber !== "" ? { transactionNumber } : {}),
      })
      .where(eq(payments.id, payment.id));
    await queuePaymentMail(tx, "receiptReceived", payment.id);
    return payment.receiptFile;
  });
  if (receipt && previous && previous !== receipt.name)
    await removeUnlessUsed(db, storage, previous);
}

/** How often the server looks for receipts past their keeping time. */
export const RECEIPT_PRUNE_MS = 60 * 60_000;

/**
 * Receipts are kept `days` after their event ends (RECEIPT_RETENTION_DAYS, a year by default),
 * then removed from the private store; the payment stays, with its reference, amount, status and
 * transaction number, so the treasurer's records and the member's data download keep what was
 * paid. Returns how many receipts were let go.
 */
export async function pruneReceipts(
  db: Db,
  storage: PrivateStorage,
  days: number,
  now: Date = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  const names = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: payments.id, name: payments.receiptFile })
      .from(payments)
      .innerJoin(events, eq(events.id, payments.eventId))
      .where(and(isNotNull(payments.receiptFile), lte(events.endsAt, before)))
      .for("update", { of: payments });
    if (due.length === 0) return [];
    await tx
      .update(payments)
      .set({ receiptFile: null })
      .where(
        inArray(
          payments.id,
          due.map((d) => d.id),
        ),
      );
    return [...new Set(due.map((d) => d.name!))];
  });
  // The files go once the rows no longer name them (one file may serve two payments).
  for (const name of names) await removeUnlessUsed(db, storage, name);
  return names.length;
}

/** Removes a private file no payment names any more (receipts are named by content). */
export async function removeUnlessUsed(
  db: Db,
  storage: PrivateStorage,
  name: string,
): Promise<void> {
  const [used] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.receiptFile, name))
    .limit(1);
  if (used) return;
  try {
    await storage.remove(name);
  } catch (error) {
    console.error("No se pudo quitar un comprobante del almacenamiento privado:", error);
  }
}

/**
 * A payment's receipt, for its member, treasurers and admins; anyone else is refused (403), and
 * an unknown or malformed id, or a payment without a receipt, is not found.
 */
export async function readReceipt(
  db: Db,
  storage: PrivateStorage,
  actor: (Actor & { id?: string }) | null,
  paymentId: unknown,
): Promise<{ name: string; data: Buffer; reference: string }> {
  if (!actor) throw new NotAllowedError();
  if (!isUuid(paymentId)) throw new PaymentNotFoundError();
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) throw new PaymentNotFoundError();
  if (payment.userId !== actor.id && !may(actor, "payments.receipts")) throw new NotAllowedError();
  if (!payment.receiptFile) throw new PaymentNotFoundError();
  return {
    name: payment.receiptFile,
    data: await storage.read(payment.receiptFile),
    reference: payment.reference,
  };
}
