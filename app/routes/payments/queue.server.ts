// /tesoreria/pagos on the server (decision 048): the treasurer's queue and its decisions, one
// form per payment and decision (`intent`), and the CSV.
import { data, type AppLoadContext } from "react-router";
import type { SessionUser } from "~/guards.server";
import { redirectWithFlash } from "~/flash.server";
import { Refusal } from "~/kernel/errors";
import { toCsv } from "~/kernel/csv";
import { formatSortableDateTime } from "~/kernel/time";
import { MESSAGES, type MessageKey } from "~/messages";
import { formatBs } from "~/payments/money";
import {
  decidePayment,
  isQueueView,
  listPayments,
  paymentsCsvRows,
  QUEUE_VIEWS,
  recordRefund,
  REASON_MAX,
  REFUND_NOTE_MAX,
  STATUS_NAMES,
  type QueueView,
} from "~/payments/review.server";

const now = (context: AppLoadContext) => context.now();

export async function loadQueue(request: Request, user: SessionUser, context: AppLoadContext) {
  const asked = new URL(request.url).searchParams.get("ver") ?? "revisar";
  if (!isQueueView(asked)) throw data("Esa vista de pagos no existe.", { status: 400 });
  const view: QueueView = asked;
  const rows = await listPayments(context.db, user, view);
  return data(
    {
      view,
      views: Object.entries(QUEUE_VIEWS).map(([key, label]) => ({ key, label })),
      payments: rows.map((r) => ({
        ...r,
        statusName: STATUS_NAMES[r.status] ?? r.status,
        amount: formatBs(r.amountCents),
        heldUntil: r.heldUntil?.toISOString() ?? null,
        submittedAt: r.submittedAt?.toISOString() ?? null,
        decidedAt: r.decidedAt?.toISOString() ?? null,
        leftAt: r.leftAt?.toISOString() ?? null,
        refundedAt: r.refundedAt?.toISOString() ?? null,
        startsAt: r.startsAt.toISOString(),
        // A refund is due for a paid place left before the start.
        refundDue: r.status === "confirmed" && r.leftAt !== null && r.leftAt < r.startsAt,
      })),
      timeZone: context.config.siteTimezone,
      reasonMax: REASON_MAX,
      noteMax: REFUND_NOTE_MAX,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const FLASH: Record<string, MessageKey> = {
  confirm: "paymentConfirmed",
  refuse: "paymentRefused",
  waive: "paymentWaived",
  refund: "paymentRefunded",
};

/** A decision's text that does not fit (too long, or not text). */
class PaymentInputError extends Refusal {
  override name = "PaymentInputError";
  constructor(message: string) {
    super(message, 400);
  }
}

/** One decision on one payment; back to the same view with its message. */
export async function queueAction(
  request: Request,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const intent = String(form.get("intent") ?? "");
  const paymentId = form.get("paymentId");
  const view = new URL(request.url).searchParams.get("ver");
  const back = `/tesoreria/pagos${isQueueView(view) ? `?ver=${view}` : ""}`;
  /** A text field within its limit, trimmed; a refusal (thrown) past it or not text. */
  const text = (name: string, max: number, what: string) => {
    const value = form.get(name);
    const trimmed = typeof value === "string" ? value.trim() : value === null ? "" : null;
    if (trimmed === null || trimmed.length > max)
      throw new PaymentInputError(`${what} puede tener como máximo ${max} caracteres.`);
    return trimmed;
  };
  // The state the treasurer's screen showed: a decision over another one is a conflict.
  const seen = form.get("visto") ?? "";
  try {
    if (intent === "confirm" || intent === "waive") {
      await decidePayment(context.db, user, paymentId, intent, null, now(context), seen);
    } else if (intent === "refuse") {
      const reason = text("motivo", REASON_MAX, "El motivo");
      await decidePayment(context.db, user, paymentId, "refuse", reason, now(context), seen);
    } else if (intent === "refund") {
      const note = text("nota", REFUND_NOTE_MAX, "La nota");
      await recordRefund(context.db, user, paymentId, note, now(context));
    } else {
      return data({ paymentId: "", message: MESSAGES.unknownAction }, { status: 400 });
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data({ paymentId: String(paymentId), message: error.message }, { status: error.status });
  }
  return redirectWithFlash(context, back, FLASH[intent]!);
}

/** /tesoreria/pagos.csv: every payment, for a spreadsheet; receipts as links needing a session. */
export async function queueCsv(user: SessionUser, context: AppLoadContext) {
  const rows = await paymentsCsvRows(context.db, user, context.config.publicUrl.origin);
  const zone = context.config.siteTimezone;
  const csv = toCsv([
    [
      "Nombre",
      "Correo",
      "Evento",
      "Referencia",
      "Monto (Bs)",
      "Estado",
      "Decidido por",
      "Decidido el",
      "Número de transacción",
      "Comprobante",
    ],
    ...rows.map((r) => [
      r.name,
      r.email,
      r.nombreEvento,
      r.reference,
      (r.amountCents / 100).toFixed(2).replace(".", ","),
      r.statusName,
      r.decidedByName ?? "",
      r.decidedAt ? formatSortableDateTime(r.decidedAt, zone) : "",
      r.transactionNumber ?? "",
      r.receiptUrl,
    ]),
  ]);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="pagos.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
