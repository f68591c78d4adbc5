// /__dev/correo — the development mailbox (docs/decisions/021-mail.md). With no SMTP_URL and not
// in production, mail is not sent but kept: here a newcomer sees what the site would have sent.
// Like the development sign-in provider, it exists only outside production (the configuration
// never has a mailbox there): anywhere else this page is a 404. It shows every member's mail,
// address and unsubscribe links, and a staging server started without NODE_ENV=production has
// it too: only admins read it.
import { data, Link } from "react-router";
import { EmptyState } from "~/ui/item-card";
import { ErrorPage } from "~/error-page";
import { notFound } from "~/kernel/not-found";
import { formatDateTime } from "~/kernel/time";
import { requireAdmin } from "~/guards.server";
import { composeMail, mailSite } from "~/mail/compose.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { listMailbox, type MailKind, type QueuedMail } from "~/mail/mail.server";
import type { Route } from "./+types/dev-mailbox";

const PRIVATE = { "Cache-Control": "private, no-store" };

export function headers() {
  return PRIVATE;
}

const STATUS: Record<string, string> = {
  pending: "En cola",
  sending: "Enviándose",
  sent: "Guardado",
  failed: "No se envió",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.config.mail.transport.kind !== "mailbox") notFound();
  await requireAdmin(request, context);
  const site = mailSite(context.config);
  const rows = await listMailbox(context.db);
  return data(
    {
      timeZone: context.config.siteTimezone,
      mails: rows.map((row) => {
        const mail: QueuedMail = {
          id: row.id,
          kind: row.kind as MailKind,
          data: row.data as QueuedMail["data"],
          attempts: row.attempts,
          email: row.email,
          name: row.name,
          mailToken: row.mailToken,
        };
        const message = composeMail(mail, site, MAIL_DRAFTS);
        return {
          id: row.id,
          to: row.email,
          subject: message.subject ?? "",
          text: String(message.text ?? ""),
          hasCalendar: (message.attachments ?? []).length > 0,
          status: STATUS[row.status] ?? row.status,
          lastError: row.lastError,
          createdAt: row.createdAt.toISOString(),
        };
      }),
    },
    { headers: PRIVATE },
  );
}

export function meta() {
  return [{ title: "Buzón de desarrollo — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { mails, timeZone } = loaderData;
  return (
    <div className="page">
      <p className="eyebrow">Solo en desarrollo</p>
      <h1>Buzón de desarrollo</h1>
      <p className="lead">
        Sin <code>SMTP_URL</code> el sitio no envía correos: los guarda aquí, tal como los enviaría,
        y solo los administradores los ven. Con <code>SMTP_URL</code> (y siempre en producción) esta
        página no existe.
      </p>
      {mails.length === 0 ? (
        <EmptyState title="Todavía no hay correos.">
          <p className="muted">
            Inscríbete en un evento o completa tu perfil, y el correo aparecerá aquí.
          </p>
        </EmptyState>
      ) : (
        <ol className="mail-list">
          {mails.map((mail) => (
            <li key={mail.id} className="card mail-item">
              <details>
                <summary>
                  <strong className="mail-subject">{mail.subject}</strong>
                  <span className="muted mail-meta">
                    Para {mail.to} · {formatDateTime(mail.createdAt, timeZone)} · {mail.status}
                    {mail.hasCalendar ? " · con .ics" : ""}
                  </span>
                </summary>
                {mail.lastError ? <p className="field-error">{mail.lastError}</p> : null}
                <pre className="mail-text">{mail.text}</pre>
                <p className="form-actions">
                  <a
                    className="button button-secondary button-small"
                    href={`/__dev/correo/${mail.id}?formato=html`}
                  >
                    Ver en HTML
                  </a>
                  <a
                    className="button button-ghost button-small"
                    href={`/__dev/correo/${mail.id}?formato=eml`}
                    download={`correo-${mail.id}.eml`}
                  >
                    Descargar .eml
                  </a>
                </p>
              </details>
            </li>
          ))}
        </ol>
      )}
      <p>
        <Link to="/inicio">Volver al inicio</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
