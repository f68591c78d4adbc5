// Opening a staff link (/puerta/:token, docs/decisions/041-staff-links.md). The GET only shows what
// the link is for, so that a chat app's preview of it opens nothing; the POST keeps the link on
// this phone (a cookie until it expires), records the opening, and goes to the event's check-in.
// A forged, unknown, expired or revoked link gets a page that says which, and changes nothing.
import { data, Form, Link, redirect } from "react-router";
import { cookieSettings } from "~/flash.server";
import { Refusal } from "~/kernel/errors";
import { formatDateTime } from "~/kernel/time";
import { readForm } from "~/kernel/read-form.server";
import { findStaffLink, openStaffLink } from "~/members/staff-links.server";
import type { Route } from "./+types/staff-link";

// The token is in the address: it never goes to another site as a referrer. Not `no-referrer`,
// under which the browser sends `Origin: null` with this page's own form, and the post is refused.
const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };

type Answer =
  | {
      state: "open";
      label: string;
      nombreEvento: string;
      startsAt: string;
      expiresAt: string;
      timeZone: string;
    }
  | { state: "refused"; message: string };

function refused(error: unknown) {
  if (!(error instanceof Refusal)) throw error;
  return data<Answer>(
    { state: "refused", message: error.message },
    { status: error.status, headers: NO_STORE },
  );
}

export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const link = await findStaffLink(
      context.db,
      context.config.sessionSecret,
      params.token,
      context.now(),
    );
    return data<Answer>(
      {
        state: "open",
        label: link.label,
        nombreEvento: link.nombreEvento,
        startsAt: link.startsAt.toISOString(),
        expiresAt: link.expiresAt.toISOString(),
        timeZone: context.config.siteTimezone,
      },
      { headers: NO_STORE },
    );
  } catch (error) {
    return refused(error);
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await readForm(request);
  try {
    const { link, cookie } = await openStaffLink(
      context.db,
      context.config.sessionSecret,
      params.token,
      cookieSettings(context),
      context.now(),
    );
    const headers = new Headers(NO_STORE);
    headers.append("Set-Cookie", cookie);
    return redirect(`/admin/eventos/${link.eventId}/registro`, { headers });
  } catch (error) {
    return refused(error);
  }
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export function meta() {
  return [{ title: "Enlace de registro — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function StaffLinkLanding({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (actionData ?? loaderData) as Answer;
  if (answer.state === "refused") {
    return (
      <section className="page page-narrow login" aria-labelledby="puerta-title">
        <div className="card login-card">
          <h1 id="puerta-title">No se puede usar este enlace</h1>
          <p role="alert">{answer.message}</p>
          <p>
            <Link className="button" to="/inicio">
              Ir al inicio
            </Link>
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="page page-narrow login" aria-labelledby="puerta-title">
      <div className="card login-card">
        <p className="eyebrow">Enlace de registro</p>
        <h1 id="puerta-title">Registro de entrada: {answer.nombreEvento}</h1>
        <p>
          Este enlace es para <strong>{answer.label}</strong>. Con él, este teléfono puede registrar
          la entrada de las personas inscritas en este evento, sin cuenta, y nada más.
        </p>
        <p className="muted">
          El evento empieza el{" "}
          <time dateTime={answer.startsAt}>{formatDateTime(answer.startsAt, answer.timeZone)}</time>
          ; el enlace vale hasta el{" "}
          <time dateTime={answer.expiresAt}>
            {formatDateTime(answer.expiresAt, answer.timeZone)}
          </time>
          , salvo que la organización lo revoque.
        </p>
        <Form method="post" reloadDocument>
          <button type="submit" className="button login-wide">
            Empezar a registrar
          </button>
        </Form>
      </div>
    </section>
  );
}
