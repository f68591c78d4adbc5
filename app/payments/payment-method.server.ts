// The site's way to be paid (decision 048): the community's bank QR (the static one the bank's
// app produces), the account holder, the bank and the instructions, set once by an admin or a
// treasurer. The QR is kept lossless (a PNG, its pixels as uploaded, no metadata) in the private
// store, and served only through a route that asks here who may see it.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { paymentMethod, payments, type PaymentMethod } from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { assertMay, may, NotAllowedError, type Actor } from "~/kernel/permissions";
import { StorageUnavailableError, type PrivateStorage } from "~/uploads/storage.server";
import {
  tooLargeError,
  UploadRefusedError,
  type UploadedFile,
  type UploadLimits,
} from "~/uploads/upload.server";
import type { User } from "~/db/schema.server";
import { QR_EXPIRY_WARNING_DAYS } from "./limits";
import type { PaymentMethodInput } from "./schemas";

/** Who acts: a signed-in member (an admin or a treasurer may), or nobody. */
type Person =
  | (Actor & Pick<User, "id"> & Partial<Pick<User, "displayName" | "nombreCompleto" | "email">>)
  | null;

const EMPTY: PaymentMethod = {
  id: "site",
  qrFile: null,
  qrUploadedAt: null,
  qrExpiresOn: null,
  accountHolder: "",
  bank: "",
  instructions: "",
  updatedAt: null,
  updatedBy: null,
};

/** The site's payment method as saved (blank fields and no QR until someone sets it up). */
export async function getPaymentMethod(db: Db): Promise<PaymentMethod> {
  const [row] = await db.select().from(paymentMethod).where(eq(paymentMethod.id, "site")).limit(1);
  return row ?? EMPTY;
}

/** Whether members can be told how to pay: a QR, or at least the account and bank. */
export function isPaymentMethodReady(method: PaymentMethod): boolean {
  return method.qrFile !== null || (method.accountHolder !== "" && method.bank !== "");
}

/**
 * 'expired' from the day the bank's QR stops working, 'soon' within QR_EXPIRY_WARNING_DAYS of it,
 * null otherwise (or when it does not expire). `today` is the site's date, YYYY-MM-DD.
 */
export function qrExpiry(expiresOn: string | null, today: string): "expired" | "soon" | null {
  if (expiresOn === null) return null;
  if (expiresOn <= today) return "expired";
  const days =
    (Date.parse(`${expiresOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000;
  return days <= QR_EXPIRY_WARNING_DAYS ? "soon" : null;
}

/** The site's one row, made or changed. */
async function upsertMethod(tx: Db, values: Partial<typeof paymentMethod.$inferInsert>) {
  await tx
    .insert(paymentMethod)
    .values({ id: "site", ...values })
    .onConflictDoUpdate({ target: paymentMethod.id, set: values });
}

/** The QR's file now, with the row locked until the transaction ends (null: none). */
async function lockedQrFile(tx: Db): Promise<string | null> {
  const [row] = await tx
    .select({ qrFile: paymentMethod.qrFile })
    .from(paymentMethod)
    .where(eq(paymentMethod.id, "site"))
    .for("update");
  return row?.qrFile ?? null;
}

/** 'Guardar datos de pago': admins and treasurers. */
export async function savePaymentMethod(
  db: Db,
  actor: Person,
  input: PaymentMethodInput,
): Promise<void> {
  const role = assertMay(actor, "payments.setup");
  const values = {
    accountHolder: input.accountHolder,
    bank: input.bank,
    instructions: input.instructions,
    qrExpiresOn: input.qrExpiresOn,
    updatedAt: new Date(),
    updatedBy: actor!.id,
  };
  await db.transaction(async (tx) => {
    await upsertMethod(tx, values);
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "payments.method",
      itemKind: "payments",
      itemId: "site",
      summary: `Guardó los datos de pago (${input.bank || "sin banco"}, ${input.accountHolder || "sin titular"})`,
    });
  });
}

const QR_KINDS = "PNG, JPEG o WebP";
const READABLE = new Set(["png", "jpeg", "webp"]);

/**
 * The bank's QR as it is stored: a PNG of the uploaded image's pixels, upright, without metadata.
 * PNG is lossless, so a PNG comes back with the same pixels and a JPEG or WebP loses nothing more;
 * a QR's edges stay sharp enough to scan. Refused: anything that is not a PNG, JPEG or WebP by its
 * bytes, whatever its name says, and an image declaring more pixels than the limit.
 */
export async function processQr(
  file: UploadedFile,
  limits: UploadLimits,
): Promise<{ name: string; data: Buffer; width: number; height: number }> {
  if (file.data.length > limits.maxBytes) throw tooLargeError(file.filename, limits);
  const notImage = new UploadRefusedError(
    `«${file.filename.slice(0, 80) || "El archivo"}» no es una imagen ${QR_KINDS}.`,
    415,
  );
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(file.data, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw notImage;
  }
  if (!READABLE.has(meta.format) || !meta.width || !meta.height) throw notImage;
  if (meta.width * meta.height > limits.maxPixels)
    throw new UploadRefusedError(
      `La imagen tiene demasiados píxeles (${meta.width} × ${meta.height}).`,
      413,
    );
  try {
    const { data, info } = await sharp(file.data, {
      limitInputPixels: limits.maxPixels,
      failOn: "error",
      animated: false,
    })
      .rotate()
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    const hash = createHash("sha256").update(data).digest("hex").slice(0, 32);
    return { name: `${hash}.png`, data, width: info.width, height: info.height };
  } catch {
    throw notImage;
  }
}

/**
 * 'Subir QR': stores the bank's QR and makes it the site's; the one it replaces is removed from
 * the private store. Admins and treasurers.
 */
export async function storePaymentQr(
  db: Db,
  storage: PrivateStorage,
  actor: Person,
  file: UploadedFile,
  limits: UploadLimits,
  now: Date = new Date(),
): Promise<{ width: number; height: number }> {
  const role = assertMay(actor, "payments.setup");
  const qr = await processQr(file, limits);
  try {
    if (!(await storage.has(qr.name))) await storage.write(qr.name, qr.data);
  } catch (error) {
    console.error("No se pudo guardar el QR del banco:", error);
    throw new StorageUnavailableError();
  }
  const previous = await db.transaction(async (tx) => {
    const before = await lockedQrFile(tx);
    const values = { qrFile: qr.name, qrUploadedAt: now, updatedAt: now, updatedBy: actor!.id };
    await upsertMethod(tx, values);
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "payments.qr",
      itemKind: "payments",
      itemId: "site",
      summary: `Subió el QR del banco (${qr.width} × ${qr.height} px)`,
    });
    return before;
  });
  if (previous && previous !== qr.name) await removeQuietly(storage, previous);
  return { width: qr.width, height: qr.height };
}

/** 'Quitar QR': admins and treasurers. Removing none changes nothing. */
export async function removePaymentQr(
  db: Db,
  storage: PrivateStorage,
  actor: Person,
): Promise<void> {
  const role = assertMay(actor, "payments.setup");
  const previous = await db.transaction(async (tx) => {
    const before = await lockedQrFile(tx);
    if (!before) return null;
    await tx
      .update(paymentMethod)
      .set({ qrFile: null, qrUploadedAt: null, updatedAt: new Date(), updatedBy: actor!.id })
      .where(eq(paymentMethod.id, "site"));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "payments.qr.remove",
      itemKind: "payments",
      itemId: "site",
      summary: "Quitó el QR del banco",
    });
    return before;
  });
  if (previous) await removeQuietly(storage, previous);
}

async function removeQuietly(storage: PrivateStorage, name: string) {
  try {
    await storage.remove(name);
  } catch (error) {
    // The row no longer names it; a backup would not carry it either. Left for the next removal.
    console.error("No se pudo quitar el QR anterior del almacenamiento privado:", error);
  }
}

/**
 * Whether this person may see the community's QR: admins and treasurers, and a member whose place
 * at some event is held for a payment.
 */
export async function maySeePaymentQr(
  db: Db,
  actor: (Actor & { id?: string }) | null,
): Promise<boolean> {
  if (!actor) return false;
  if (may(actor, "payments.setup")) return true;
  if (!actor.id) return false;
  const [held] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.userId, actor.id),
        inArray(payments.status, ["pending", "submitted", "refused"]),
      ),
    )
    .limit(1);
  return held !== undefined;
}

/**
 * The bank's QR as a PNG, for those who may see it (maySeePaymentQr); anyone else is refused.
 * Null when none is set or its file is gone.
 */
export async function readPaymentQr(
  db: Db,
  storage: PrivateStorage,
  actor: (Actor & { id?: string }) | null,
): Promise<Buffer | null> {
  if (!(await maySeePaymentQr(db, actor))) throw new NotAllowedError();
  const method = await getPaymentMethod(db);
  if (!method.qrFile) return null;
  try {
    return await storage.read(method.qrFile);
  } catch {
    return null;
  }
}
