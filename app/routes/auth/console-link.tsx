// An admin's sign-in link from the server's console (docs/decisions/074-console-sign-in-link.md).
// The GET only asks to confirm, so that a chat's link preview or a scanner uses nothing up; the
// POST of that page signs in and leads to Diagnóstico. It works at whatever address it is opened:
// its POST is exempt from the check that holds a form's origin to PUBLIC_URL (the signed token,
// not a cookie, is its authority), and the session cookie follows the address it was opened at
// (cookieSettings).
import { data, Link, redirect } from "react-router";
import { Refusal } from "~/kernel/errors";
import { cookieSettings } from "~/flash.server";
import { replaceSession } from "~/members/session.server";
import { afterSignIn } from "~/members/device-copy.server";
import {
  CONSOLE_LINK_LANDING,
  inspectConsoleLink,
  redeemConsoleLink,
} from "~/members/console-link.server";
import { CONSOLE_LINK_MESSAGES } from "~/members/messages";
import { readForm } from "~/kernel/read-form.server";
import type { Route } from "./+types/console-link";
import { EmailAddress } from "~/ui/email-address";

const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

type Answer = { state: "confirm"; email: string } | { state: "refused"; message: string };

function refused(message: string, status: number) {
  return data<Answer>({ state: "refused", message }, { status, headers: NO_STORE });
}

export function loader({ context, params }: Route.LoaderArgs) {
  const link = inspectConsoleLink(context.config.sessionSecret, params.token, context.now());
  if (!link) return refused(CONSOLE_LINK_MESSAGES.invalid, 400);
  return data<Answer>({ state: "confirm", email: link.email }, { headers: NO_STORE });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await readForm(request);
  const seen = context.requestSeen();
  try {
    const user = await redeemConsoleLink(context.db, context.config.sessionSecret, params.token, {
      now: context.now(),
      adminEmails: context.config.adminEmails,
      openedAt: `${seen.protocol}://${seen.authority}`,
      client: seen.clientIp,
    });
    const settings = cookieSettings(context);
    const headers = new Headers(NO_STORE);
    headers.append(
      "Set-Cookie",
      await replaceSession(context.db, request, user.id, settings, {
        maxPerAccount: context.config.sessionsPerAccount,
      }),
    );
    // Another member's passes kept on this device are forgotten (decision 050).
    return afterSignIn(
      redirect(CONSOLE_LINK_LANDING, { headers }),
      request,
      context.config.sessionSecret,
      user.id,
      settings,
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refused(error.message, error.status);
  }
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export function meta() {
  return [
    { title: "Entrar con el enlace de la consola — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

export default function ConsoleLink({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (actionData ?? loaderData) as Answer;
  if (answer.state === "refused") {
    return (
      <section className="page page-narrow login" aria-labelledby="console-link-title">
        <div className="card login-card">
          <h1 id="console-link-title">No se pudo iniciar sesión</h1>
          <p role="alert">{answer.message}</p>
          <p>
            <Link className="button" to="/login">
              Ir a Iniciar Sesión
            </Link>
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="page page-narrow login" aria-labelledby="console-link-title">
      <div className="card login-card">
        <h1 id="console-link-title">Entrar como administrador</h1>
        <p>
          Este enlace se pidió en la consola del servidor. Sirve una sola vez, durante 15 minutos,
          para entrar como{" "}
          <strong>
            <EmailAddress email={answer.email} />
          </strong>{" "}
          y abrir Diagnóstico, aunque el correo no funcione o PUBLIC_URL no sea esta dirección.
        </p>
        {/* A plain form: the POST must leave from this page, whatever address it was opened at. */}
        <form method="post">
          <button type="submit" className="button login-wide">
            Entrar y abrir Diagnóstico
          </button>
        </form>
        <p className="login-note">
          Si no lo pediste tú en el servidor, cierra esta página: nadie entra sin confirmar.
        </p>
      </div>
    </section>
  );
}
