// A certificate as a PDF: of attendance, the member's own (/detalles/:eventId/certificado.pdf) or
// any participant's for an admin (/admin/eventos/:eventId/participantes/:userId/certificado.pdf);
// by place in a competition's category (decision 060), the member's own
// (/detalles/:eventId/categorias/:categoryId/certificado.pdf) or any competitor's for its
// organisers (…/categorias/:categoryId/certificados/:userId/certificado.pdf). Who may have which
// is decided by the models (app/attendance/certificate.server.ts, competitions/judging/awards).

import { getUser, requireEventMay, requireProfile } from "~/guards.server";
import { certificateFor, formatCertificateCode } from "~/attendance/certificate.server";
import { certificatePdf } from "~/attendance/certificate-pdf.server";
import { awardFor } from "~/competitions/judging/awards.server";
import type { Route } from "./+types/download";
import { redirectWithFlash } from "~/flash.server";
import { Refusal } from "~/kernel/errors";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  let userId: string;
  let actor;
  const categoryId = "categoryId" in params ? params.categoryId : undefined;
  if ("userId" in params && params.userId !== undefined) {
    const action = categoryId === undefined ? "event.participants" : "event.judging";
    actor = await requireEventMay(request, context, action, params.eventId);
    userId = params.userId;
  } else {
    if (!(await getUser(request, context))) {
      const back = new URL(request.url).pathname;
      throw redirectWithFlash(
        context,
        `/login?redirectTo=${encodeURIComponent(back)}`,
        categoryId === undefined ? "certificateLoginRequired" : "awardLoginRequired",
      );
    }
    actor = await requireProfile(request, context);
    userId = actor.id;
  }
  let certificate;
  try {
    certificate =
      categoryId === undefined
        ? await certificateFor(context.db, actor, params.eventId, userId, context.now())
        : await awardFor(context.db, actor, params.eventId, categoryId, userId);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    // A download link has no page around it: the reason is the answer, in plain words.
    return new Response(`${error.message}\n`, {
      status: error.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const pdf = await certificatePdf(certificate, {
    publicUrl: context.config.publicUrl,
    timeZone: context.config.siteTimezone,
  });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="certificado-${formatCertificateCode(certificate.code)}.pdf"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
