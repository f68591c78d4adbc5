// Following an e-mailed sign-in link (docs/decisions/034-sign-in-by-link.md). In the browser that
// asked for it (its cookie matches) the GET signs in. Anywhere else the GET only asks to confirm,
// and the POST of that page signs in: a mail scanner that fetches the link uses nothing up.
import { data, Form, Link, redirect } from "react-router";
import { Refusal } from "~/kernel/errors";
import { cookieSettings } from "~/flash.server";
import { replaceSession } from "~/members/session.server";
import { afterSignIn } from "~/members/device-copy.server";
import { inspectLink, redeemSignInLink } from "~/members/email-link.server";
import { EMAIL_LINK_MESSAGES } from "~/members/messages";
import { pathAfterSignIn } from "~/members/user.server";
import { readForm } from "~/kernel/read-form.server";
import type { Route } from "./+types/email-link";
import { EmailAddress } from "~/ui/email-address";

const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

type Answer =
  { state: "confirm"; email: string; token: string } | { state: "refused"; message: string };

async function signIn(
  request: Request,
  context: Route.LoaderArgs["context"],
  token: string,
  requireSameBrowser: boolean,
) {
  try {
    const { user, redirectTo } = await redeemSignInLink(
      context.db,
      request,
      token,
      { now: context.now(), adminEmails: context.config.adminEmails, requireSameBrowser },
      cookieSettings(context),
    );
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
      redirect(pathAfterSignIn(user, redirectTo), { headers }),
      request,
      context.config.sessionSecret,
      user.id,
      settings,
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data<Answer>(
      { state: "refused", message: error.message },
      { status: error.status, headers: NO_STORE },
    );
  }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const link = await inspectLink(
    context.db,
    request,
    params.token,
    context.now(),
    cookieSettings(context),
  );
  if (!link) {
    return data<Answer>(
      { state: "refused", message: EMAIL_LINK_MESSAGES.invalid },
      { status: 400, headers: NO_STORE },
    );
  }
  if (link.sameBrowser) return signIn(request, context, params.token, true);
  return data<Answer>(
    { state: "confirm", email: link.email, token: params.token },
    { headers: NO_STORE },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await readForm(request);
  return signIn(request, context, params.token, false);
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export function meta() {
  return [
    { title: "Iniciar sesión con el enlace — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

export default function EmailLink({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (actionData ?? loaderData) as Answer;
  if (answer.state === "refused") {
    return (
      <section className="page page-narrow login" aria-labelledby="link-title">
        <div className="card login-card">
          <h1 id="link-title">No se pudo iniciar sesión</h1>
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
    <section className="page page-narrow login" aria-labelledby="link-title">
      <div className="card login-card">
        <h1 id="link-title">¿Iniciar sesión en este dispositivo?</h1>
        <p>
          Abriste el enlace en un navegador o dispositivo distinto del que lo pidió. Si lo pediste
          tú, confirma para iniciar sesión aquí como{" "}
          <strong>
            <EmailAddress email={answer.email} />
          </strong>
          .
        </p>
        <Form method="post" reloadDocument>
          <button type="submit" className="button login-wide">
            Iniciar sesión aquí
          </button>
        </Form>
        <p className="login-note">
          Si no pediste este enlace, cierra esta página: nadie inicia sesión sin confirmar.
        </p>
      </div>
    </section>
  );
}
