import { data, Form, redirect, useNavigation } from "react-router";
import { EmailLinkForm } from "~/members/components/email-link-form";
import { AlertDialog } from "~/ui/dialog";
import { MESSAGES } from "~/messages";
import { safeRedirectPath } from "~/kernel/checks";
import { getUser } from "~/guards.server";
import { pathAfterSignIn } from "~/members/user.server";
import type { Route } from "./+types/login";
import { readForm } from "~/kernel/read-form.server";
import { worksWithoutScripts } from "~/site/light-mode";

function wantedPath(value: unknown): string | null {
  const path = safeRedirectPath(value, "");
  return path === "" || path.startsWith("/login") || path.startsWith("/auth/") ? null : path;
}

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const wanted = wantedPath(url.searchParams.get("redirectTo"));
  const user = await getUser(request, context);
  if (user) throw redirect(pathAfterSignIn(user, wanted));
  return {
    redirectTo: wanted,
    failed: url.searchParams.has("error"),
    provider: context.auth !== null,
    emailLinks: context.config.emailLinks.enabled,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const wanted = wantedPath(form.get("redirectTo"));
  const user = await getUser(request, context);
  if (user) throw redirect(pathAfterSignIn(user, wanted));
  // A site without an OpenID provider signs in by e-mailed links only.
  if (!context.auth) throw data("Este sitio no inicia sesión con un proveedor.", { status: 404 });
  try {
    const { url, setCookie } = await context.auth.startSignIn(wanted);
    return redirect(url.toString(), { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    console.error("No se pudo iniciar el inicio de sesión:", error);
    return redirect(
      wanted ? `/login?error=1&redirectTo=${encodeURIComponent(wanted)}` : "/login?error=1",
    );
  }
}

export function meta() {
  return [{ title: "Iniciar Sesión — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/login";
  const { provider, emailLinks } = loaderData;
  return (
    <section className="page page-narrow login" aria-labelledby="login-title">
      <div className="card login-card">
        <h1 id="login-title">Iniciar Sesión</h1>
        <p>
          {provider
            ? "Inicia sesión con tu cuenta de Google para usar todas las funciones."
            : "Recibe un enlace en tu correo para iniciar sesión y usar todas las funciones."}
        </p>
        {provider ? (
          <Form method="post" action="/login" reloadDocument>
            {loaderData.redirectTo ? (
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            ) : null}
            <button type="submit" className="button button-google" disabled={busy}>
              <svg aria-hidden="true" viewBox="0 0 48 48" width="20" height="20">
                <path
                  fill="#FFC107"
                  d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
                />
                <path
                  fill="#FF3D00"
                  d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
                />
                <path
                  fill="#4CAF50"
                  d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
                />
                <path
                  fill="#1976D2"
                  d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
                />
              </svg>
              Iniciar Sesión con Google
            </button>
          </Form>
        ) : null}
        {provider && emailLinks ? (
          <p className="login-or" aria-hidden="true">
            o
          </p>
        ) : null}
        {emailLinks ? (
          <>
            <h2 className="visually-hidden">Recibir un enlace por correo</h2>
            <EmailLinkForm redirectTo={loaderData.redirectTo} />
            <p className="login-note">
              Sin contraseña ni cuenta de Google: si aún no tienes cuenta, se crea al abrir el
              enlace.
            </p>
          </>
        ) : null}
      </div>
      {loaderData.failed ? <AlertDialog message={MESSAGES.loginFailed} /> : null}
    </section>
  );
}
