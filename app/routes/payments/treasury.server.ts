// /tesoreria on the server (decision 048): the site's way to be paid, and its forms' posts — the
// data ('method'), the bank's QR (a multipart post of one image) and its removal ('removeQr').
// The route checks who is asking; the model asks again.
import { data, type AppLoadContext } from "react-router";
import type { SessionUser } from "~/guards.server";
import { redirectWithFlash } from "~/flash.server";
import { Refusal } from "~/kernel/errors";
import { parseForm, type FieldErrors } from "~/kernel/forms";
import { readForm } from "~/kernel/read-form.server";
import { zonedDateTime } from "~/kernel/time";
import { MESSAGES } from "~/messages";
import {
  getPaymentMethod,
  qrExpiry,
  removePaymentQr,
  savePaymentMethod,
  storePaymentQr,
} from "~/payments/payment-method.server";
import { PaymentMethodSchema } from "~/payments/schemas";
import { readUploads } from "~/uploads/read-uploads.server";
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import { busyError } from "~/uploads/upload.server";

export interface TreasuryActionData {
  intent: "method" | "qr" | "removeQr" | "";
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
}

const reply = (body: TreasuryActionData, status: number) => data(body, { status });

const MULTIPART = /^multipart\/form-data\s*;/i;

export async function loadTreasury(user: SessionUser, context: AppLoadContext) {
  const method = await getPaymentMethod(context.db);
  const now = context.now();
  const today = zonedDateTime(now, context.config.siteTimezone).date;
  return data(
    {
      method: {
        accountHolder: method.accountHolder,
        bank: method.bank,
        instructions: method.instructions,
        qrExpiresOn: method.qrExpiresOn ?? "",
        // The image's address changes with the file, so a new QR is never an old cached one.
        qr: method.qrFile
          ? {
              src: `/pago/qr.png?v=${method.qrFile.slice(0, 8)}`,
              uploadedAt: method.qrUploadedAt?.toISOString() ?? null,
            }
          : null,
        expiry: qrExpiry(method.qrExpiresOn, today),
        updatedAt: method.updatedAt?.toISOString() ?? null,
      },
      isAdmin: user.isAdmin,
      timeZone: context.config.siteTimezone,
      maxMegabytes: Math.round(context.config.uploadMaxBytes / 1024 / 1024),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

async function uploadQr(request: Request, user: SessionUser, context: AppLoadContext) {
  const limits = {
    maxBytes: context.config.uploadMaxBytes,
    maxPixels: context.config.uploadMaxPixels,
  };
  // The same line as every image upload: a bounded number decoded at once in a process.
  const place = context.decodeQueue.enter();
  if (!place) return reply({ intent: "qr", message: busyError().message }, 503);
  try {
    const files = await readUploads(request, limits);
    if (files.length > 1) return reply({ intent: "qr", message: "Elige una sola imagen." }, 400);
    await place.run(() =>
      storePaymentQr(context.db, sitePrivateStorage(context.config), user, files[0]!, limits),
    );
  } catch (error) {
    if (error instanceof Refusal)
      return reply({ intent: "qr", message: error.message }, error.status);
    throw error;
  } finally {
    place.leave();
  }
  return redirectWithFlash(context, "/tesoreria", "paymentQrSaved");
}

/** Runs what was posted: the QR (multipart), or the form its `intent` names. */
export async function treasuryAction(request: Request, user: SessionUser, context: AppLoadContext) {
  if (MULTIPART.test(request.headers.get("Content-Type") ?? "")) {
    // A multipart post here is the QR's form (its one field is the file); any other form is not.
    return uploadQr(request, user, context);
  }
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "method") {
    const result = parseForm(PaymentMethodSchema, form, { ignore: ["intent"] });
    if (!result.ok)
      return reply(
        {
          intent,
          fieldErrors: result.fieldErrors,
          message: result.formError ?? "Revisa los campos marcados.",
          values: result.values,
        },
        400,
      );
    await savePaymentMethod(context.db, user, result.data);
    return redirectWithFlash(context, "/tesoreria", "paymentMethodSaved");
  }
  if (intent === "removeQr") {
    await removePaymentQr(context.db, sitePrivateStorage(context.config), user);
    return redirectWithFlash(context, "/tesoreria", "paymentQrRemoved");
  }
  return reply({ intent: "", message: MESSAGES.unknownAction }, 400);
}
