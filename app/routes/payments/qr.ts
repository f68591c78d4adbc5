// GET /pago/qr.png — the community's bank QR as stored (a PNG), for those the payments model lets
// see it: admins, treasurers, and members whose place is held for a payment. Never cached by
// anyone but the browser that asked.
import { getUser } from "~/guards.server";
import { NotAllowedError } from "~/kernel/permissions";
import { readPaymentQr } from "~/payments/payment-method.server";
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import type { Route } from "./+types/qr";

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  if (!user) return text("Inicia sesión para ver el QR de pago.", 403);
  let png: Buffer | null;
  try {
    png = await readPaymentQr(context.db, sitePrivateStorage(context.config), user);
  } catch (error) {
    if (error instanceof NotAllowedError) return text(error.message, 403);
    throw error;
  }
  if (!png) return text("No hay un QR de pago.", 404);
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "private, no-store",
      "Content-Disposition": 'inline; filename="qr-pago.png"',
    },
  });
}
