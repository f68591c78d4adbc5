// GET /pagos/:paymentId/comprobante — a payment's receipt, for its member, treasurers and admins
// (decision 048). A picture (a photo, or a PDF's pages drawn on arrival, decision 061) is shown
// inline, under the sandbox policy security.server.ts gives this path; a PDF stored before PDFs
// were drawn is only ever a download (Content-Disposition: attachment), never opened in the page.
import { getUser } from "~/guards.server";
import { NotAllowedError } from "~/kernel/permissions";
import { PaymentNotFoundError, readReceipt } from "~/payments/payment.server";
import { receiptType } from "~/payments/receipts.server";
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import { MESSAGES } from "~/messages";
import type { Route } from "./+types/receipt";

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  if (!user) return text("Inicia sesión para ver el comprobante.", 403);
  try {
    const receipt = await readReceipt(
      context.db,
      sitePrivateStorage(context.config),
      user,
      params.paymentId,
    );
    const extension = receipt.name.slice(receipt.name.lastIndexOf("."));
    const filename = `comprobante-${receipt.reference}${extension}`;
    return new Response(new Uint8Array(receipt.data), {
      headers: {
        "Content-Type": receiptType(receipt.name),
        "Content-Length": String(receipt.data.length),
        "Content-Disposition": `${extension === ".pdf" ? "attachment" : "inline"}; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof NotAllowedError) return text(MESSAGES.accessDenied, 403);
    if (error instanceof PaymentNotFoundError) return text(error.message, 404);
    throw error;
  }
}
