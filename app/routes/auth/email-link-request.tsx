// 'Recibir un enlace por correo' (docs/decisions/034-sign-in-by-link.md): the address is checked,
// a link is made and mailed, and the page says to look in the mail. The answer is the same
// whether or not the address has an account. Outside production without SMTP the page shows the
// link itself, to the person who asked for it.
import { data, Link, redirect, useNavigation } from "react-router";
import { safeRedirectPath } from "~/kernel/checks";
import { readForm } from "~/kernel/read-form.server";
import { Refusal } from "~/kernel/errors";
import { getUser } from "~/guards.server";
import { cookieSettings } from "~/flash.server";
import { issueSignInLink, LINK_TTL_MS } from "~/members/email-link.server";
import { EMAIL_LINK_MESSAGES } from "~/members/messages";
import { EmailLinkRequestSchema } from "~/members/schemas";
import { pathAfterSignIn } from "~/members/user.server";
import { EmailLinkForm } from "~/members/components/email-link-form";
import type { Route } from "./+types/email-link-request";
import { EmailAddress } from "~/ui/email-address";

const NO_STORE = { "Cache-Control": "private, no-store" };

function wantedPath(value: unknown): string | null {
  const path = safeRedirectPath(value, "");
  return path === "" || path.startsWith("/login") || path.startsWith("/auth/") ? null : path;
}

// A GET shows the form alone (the page a refused request is answered with).
export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!context.config.emailLinks.enabled)
    throw data(EMAIL_LINK_MESSAGES.unavailable, { status: 404 });
  const form = await readForm(request);
  const redirectTo = wantedPath(form.get("redirectTo"));
  const user = await getUser(request, context);
  if (user) throw redirect(pathAfterSignIn(user, redirectTo));
  const typed = form.get("email");
  const parsed = EmailLinkRequestSchema.safeParse({ email: typed ?? undefined });
  const echo = typeof typed === "string" ? typed.slice(0, 254) : "";
  if (!parsed.success) {
    return data(
      { sent: false as const, email: echo, redirectTo, error: parsed.error.issues[0]!.message },
      { status: 400, headers: NO_STORE },
    );
  }
  let link;
  try {
    link = await issueSignInLink(
      context.db,
      request,
      {
        email: parsed.data.email,
        redirectTo,
        client: context.clientAddress,
        origin: context.config.publicUrl.origin,
        limits: context.config.emailLinks,
        now: context.now(),
      },
      cookieSettings(context),
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data(
      { sent: false as const, email: echo, redirectTo, error: error.message },
      {
        status: error.status,
        headers: { ...NO_STORE, "Retry-After": String(error.retryAfter ?? 60) },
      },
    );
  }
  if (context.signInMailer) {
    try {
      await context.signInMailer.send({ to: link.email, url: link.url, expiresAt: link.expiresAt });
    } catch (error) {
      console.error("No se pudo enviar el enlace de inicio de sesión:", error);
      return data(
        { sent: false as const, email: echo, redirectTo, error: EMAIL_LINK_MESSAGES.sendFailed },
        { status: 503, headers: { ...NO_STORE, "Retry-After": "60" } },
      );
    }
  }
  return data(
    {
      sent: true as const,
      email: link.email,
      // Only without SMTP outside production: the person sees their own link.
      shownLink: context.signInMailer ? null : link.url,
      minutes: LINK_TTL_MS / 60_000,
    },
    { headers: { ...NO_STORE, "Set-Cookie": link.setCookie } },
  );
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

// The title depends on the action's answer, which meta() does not see: the page renders it.
export function meta() {
  return [{ name: "robots", content: "noindex" }];
}

export default function EmailLinkRequest({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  if (!actionData || !actionData.sent) {
    return (
      <section className="page page-narrow login" aria-labelledby="login-title">
        <title>Recibir un enlace por correo — Ayllu</title>
        <div className="card login-card">
          <h1 id="login-title">Recibir un enlace por correo</h1>
          <EmailLinkForm
            redirectTo={actionData?.redirectTo ?? null}
            email={actionData?.email}
            error={actionData?.error}
            busy={busy}
          />
          <p>
            <Link to="/login">Volver a Iniciar Sesión</Link>
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="page page-narrow login" aria-labelledby="check-title">
      <title>Revisa tu correo — Ayllu</title>
      <div className="card login-card">
        <h1 id="check-title">Revisa tu correo</h1>
        <p>
          {actionData.shownLink
            ? "Tu enlace para iniciar sesión como "
            : "Enviamos un enlace para iniciar sesión a "}
          <strong>
            <EmailAddress email={actionData.email} />
          </strong>
          {`. Ábrelo en este navegador: sirve una sola vez y caduca en ${actionData.minutes} minutos.`}
        </p>
        {actionData.shownLink ? (
          <div className="login-link-shown" role="note">
            <p>
              <strong>Sitio en desarrollo, sin SMTP_URL:</strong> no se envía ningún correo, así que
              el enlace está aquí.
            </p>
            <p>
              <a href={actionData.shownLink}>Abrir el enlace de inicio de sesión</a>
            </p>
          </div>
        ) : (
          <p className="login-note">
            Si no llega en unos minutos, revisa la carpeta de spam o{" "}
            <Link to="/login">pide otro enlace</Link>. Si el correo no tiene cuenta todavía, se crea
            al abrir el enlace.
          </p>
        )}
      </div>
    </section>
  );
}
