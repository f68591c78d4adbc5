// /detalles/:eventId/pago on the server (decision 048): the member's payment for their place, and
// what they send — the receipt (a multipart post of one file) or the transaction number.
import { data, type AppLoadContext } from "react-router";
import type { SessionUser } from "~/guards.server";
import { redirectWithFlash } from "~/flash.server";
import { Refusal } from "~/kernel/errors";
import { parseForm, type FieldErrors } from "~/kernel/forms";
import { notFound } from "~/kernel/not-found";
import { readForm } from "~/kernel/read-form.server";
import { MESSAGES } from "~/messages";
import { isPaymentMethodReady } from "~/payments/payment-method.server";
import {
  loadMyPayment,
  PaymentNotFoundError,
  submitReceipt,
  submitTransactionNumber,
} from "~/payments/payment.server";
import { TransactionSchema } from "~/payments/schemas";
import { readUploads } from "~/uploads/read-uploads.server";
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import { busyError } from "~/uploads/upload.server";
import { isUuid } from "~/kernel/checks";
import { teamName } from "~/competitions/team-hooks.server";

export interface PayActionData {
  intent: "receipt" | "transaction" | "";
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
}

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

async function sendReceipt(
  request: Request,
  user: SessionUser,
  eventId: string,
  context: AppLoadContext,
) {
  const limits = {
    maxBytes: context.config.uploadMaxBytes,
    maxPixels: context.config.uploadMaxPixels,
  };
  const place = context.decodeQueue.enter();
  if (!place) return reply({ intent: "receipt", message: busyError().message }, 503);
  try {
    const files = await readUploads(request, limits, {
      field: "comprobante",
      missing: "Elige la foto o el PDF del comprobante.",
    });
    if (files.length > 1)
      return reply({ intent: "receipt", message: "Envía un solo comprobante." }, 400);
    await place.run(() =>
      submitReceipt(
        context.db,
        sitePrivateStorage(context.config),
        user,
        eventId,
        files[0]!,
        limits,
        now(context),
        teamOf(request),
      ),
    );
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound(error.message);
    if (error instanceof Refusal)
      return reply({ intent: "receipt", message: error.message }, error.status);
    throw error;
  } finally {
    place.leave();
  }
  return redirectWithFlash(context, pagePath(eventId, teamOf(request)), "receiptReceived");
}

/** What was posted: the receipt (multipart), or the transaction number. */
export async function payAction(
  request: Request,
  user: SessionUser,
  eventId: string,
  context: AppLoadContext,
) {
  if (MULTIPART.test(request.headers.get("Content-Type") ?? ""))
    return sendReceipt(request, user, eventId, context);
  const form = await readForm(request);
  if (form.get("intent") !== "transaction")
    return reply({ intent: "", message: MESSAGES.unknownAction }, 400);
  const result = parseForm(TransactionSchema, form);
  if (!result.ok)
    return reply(
      {
        intent: "transaction",
        fieldErrors: result.fieldErrors,
        message: result.formError ?? undefined,
        values: result.values,
      },
      400,
    );
  try {
    await submitTransactionNumber(
      context.db,
      user,
      eventId,
      result.data.transactionNumber,
      now(context),
      teamOf(request),
    );
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound(error.message);
    if (error instanceof Refusal)
      return reply({ intent: "transaction", message: error.message }, error.status);
    throw error;
  }
  return redirectWithFlash(context, pagePath(eventId, teamOf(request)), "receiptReceived");
}
