// /detalles/:eventId/pago on the server (decision 048): the member's payment for their place, and
// what they send — the receipt (one file), the transaction number, or both, in one form.
import { data, type AppLoadContext } from "react-router";
import type { SessionUser } from "~/guards.server";
import { redirectWithFlash } from "~/flash.server";
import { Refusal } from "~/kernel/errors";
import type { FieldErrors } from "~/kernel/forms";
import { notFound } from "~/kernel/not-found";
import { readForm } from "~/kernel/read-form.server";
import { MESSAGES } from "~/messages";
import { isPaymentMethodReady } from "~/payments/payment-method.server";
import {
  loadMyPayment,
  PaymentNotFoundError,
  PaymentProofRefused,
  submitPayment,
} from "~/payments/payment.server";
import { readUploadForm } from "~/uploads/read-uploads.server";
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import { busyError, UploadRefusedError, type UploadedFile } from "~/uploads/upload.server";
import { isUuid } from "~/kernel/checks";
import { teamName } from "~/competitions/team-hooks.server";

export interface PayActionData {
  intent: "pay" | "";
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
}

const ONE_RECEIPT = "Envía un solo comprobante.";
const reply = (body: PayActionData, status: number) => data(body, { status });
const MULTIPART = /^multipart\/form-data\s*;/i;
const now = (context: AppLoadContext) => context.now();

/**
 * The team whose fee this page pays (decision 052), from `?equipo=`; null for the member's own
 * registration. A malformed id is no payment of theirs.
 */
function teamOf(request: Request): string | null {
  const teamId = new URL(request.url).searchParams.get("equipo");
  if (teamId === null) return null;
  if (!isUuid(teamId)) throw new PaymentNotFoundError();
  return teamId;
}

const pagePath = (eventId: string, teamId: string | null) =>
  `/detalles/${eventId}/pago${teamId ? `?equipo=${teamId}` : ""}`;

export async function loadPayPage(
  request: Request,
  user: SessionUser,
  eventId: unknown,
  context: AppLoadContext,
) {
  let found: Awaited<ReturnType<typeof loadMyPayment>>;
  let teamId: string | null;
  try {
    teamId = teamOf(request);
    found = await loadMyPayment(context.db, user, eventId, teamId);
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound(error.message);
    throw error;
  }
  const { payment, event, method } = found;
  const team = teamId ? await teamName(context.db, teamId) : null;
  return data(
    {
      team: team && teamId ? { id: teamId, name: team } : null,
      event: {
        id: event.id,
        nombreEvento: event.nombreEvento,
        startsAt: event.startsAt.toISOString(),
        endsAt: event.endsAt.toISOString(),
      },
      payment: {
        id: payment.id,
        status: payment.status,
        reference: payment.reference,
        amountCents: payment.amountCents,
        heldUntil: payment.heldUntil?.toISOString() ?? null,
        hasReceipt: payment.receiptFile !== null,
        transactionNumber: payment.transactionNumber,
        submittedAt: payment.submittedAt?.toISOString() ?? null,
        refusalReason: payment.refusalReason,
      },
      method: {
        ready: isPaymentMethodReady(method),
        qr: method.qrFile ? `/pago/qr.png?v=${method.qrFile.slice(0, 8)}` : null,
        accountHolder: method.accountHolder,
        bank: method.bank,
        instructions: method.instructions,
      },
      timeZone: context.config.siteTimezone,
      maxMegabytes: Math.round(context.config.uploadMaxBytes / 1024 / 1024),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const PROOF_TEXTS = ["intent", "transactionNumber"] as const;

/**
 * 'Envía tu comprobante': one form, the receipt (a file) or the transaction number or both, sent as
 * a multipart post; a plain form post with the number alone is read the same way.
 */
export async function payAction(
  request: Request,
  user: SessionUser,
  eventId: string,
  context: AppLoadContext,
) {
  const limits = {
    maxBytes: context.config.uploadMaxBytes,
    maxPixels: context.config.uploadMaxPixels,
  };
  const multipart = MULTIPART.test(request.headers.get("Content-Type") ?? "");
  const place = multipart ? context.decodeQueue.enter() : null;
  if (multipart && !place) return reply({ intent: "pay", message: busyError().message }, 503);
  let transactionNumber = "";
  try {
    let receipt: UploadedFile | null = null;
    let texts: Map<string, string>;
    if (multipart) {
      const form = await readUploadForm(request, limits, {
        field: "comprobante",
        texts: PROOF_TEXTS,
        optional: true,
      });
      if (form.files.length > 1)
        return reply({ intent: "pay", fieldErrors: { comprobante: ONE_RECEIPT } }, 400);
      receipt = form.files[0] ?? null;
      texts = form.texts;
    } else {
      const form = await readForm(request);
      const unknown = [...form.keys()].find(
        (key) => !(PROOF_TEXTS as readonly string[]).includes(key),
      );
      if (unknown !== undefined) return reply({ intent: "", message: MESSAGES.unknownAction }, 400);
      texts = new Map([...form.entries()].map(([key, value]) => [key, String(value)]));
    }
    const intent = texts.get("intent");
    if (intent !== undefined && intent !== "pay" && intent !== "transaction")
      return reply({ intent: "", message: MESSAGES.unknownAction }, 400);
    transactionNumber = texts.get("transactionNumber") ?? "";
    const send = () =>
      submitPayment(
        context.db,
        sitePrivateStorage(context.config),
        user,
        eventId,
        { receipt, transactionNumber },
        limits,
        now(context),
        teamOf(request),
      );
    await (place ? place.run(send) : send());
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound(error.message);
    if (error instanceof PaymentProofRefused)
      return reply(
        { intent: "pay", fieldErrors: error.fieldErrors, values: { transactionNumber } },
        error.status,
      );
    if (error instanceof UploadRefusedError)
      return reply({ intent: "pay", fieldErrors: { comprobante: error.message } }, error.status);
    if (error instanceof Refusal)
      return reply({ intent: "", message: error.message }, error.status);
    throw error;
  } finally {
    place?.leave();
  }
  return redirectWithFlash(context, pagePath(eventId, teamOf(request)), "receiptReceived");
}
