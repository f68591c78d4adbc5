// /__dev/correo/:mailId?formato=html|eml — one mail of the development mailbox: its HTML part,
// shown under a policy that runs nothing, or the whole message as a .eml file for a mail program.
// For admins only, as the mailbox (dev-mailbox.tsx).
import MailComposer from "nodemailer/lib/mail-composer";
import { MAIL_MESSAGES } from "~/mail/messages";
import { notFound } from "~/kernel/not-found";
import { requireAdmin } from "~/guards.server";
import { composeMail, mailSite } from "~/mail/compose.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { getQueuedMail } from "~/mail/mail.server";
import type { Route } from "./+types/dev-mail";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (context.config.mail.transport.kind !== "mailbox") notFound();
  await requireAdmin(request, context);
  const mail = await getQueuedMail(context.db, params.mailId);
  if (!mail) notFound(MAIL_MESSAGES.mailNotFound);
  const message = composeMail(mail, mailSite(context.config), MAIL_DRAFTS);
  const format = new URL(request.url).searchParams.get("formato");
  if (format === "eml") {
    const raw = await new MailComposer(message).compile().build();
    return new Response(new Uint8Array(raw), {
      headers: {
        "Content-Type": "message/rfc822",
        "Content-Disposition": `attachment; filename="correo-${mail.id}.eml"`,
        "Cache-Control": "private, no-store",
      },
    });
  }
  return new Response(String(message.html ?? ""), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      // The mail's own inline styles and the site's own pictures (the logo in the band), nothing
      // else: no script, no request to another site.
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "Cache-Control": "private, no-store",
    },
  });
}
