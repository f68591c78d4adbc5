import { Form, Link, redirect } from "react-router";
import { getUser } from "~/guards.server";
import { useScriptsRunning } from "~/kernel/use-scripts-running";
import { useSignOutGuard } from "~/ui/sign-out-guard";
import type { Route } from "./+types/sign-out";

/**
 * 'Cerrar Sesión' where the member's menu has no scripts (light mode, decision 049). Signing out
 * is a post to /logout; this page's script first asks the phone whether check-ins or a judge's
 * entries wait to be sent (decision 019). Without JavaScript the form posts. A visitor is sent
 * home.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  if (!user) throw redirect("/");
  return null;
}

export function meta() {
  return [{ title: "Cerrar Sesión — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function SignOutPage() {
  const signOut = useSignOutGuard();
  // The button comes with the script that asks the phone: a tap before it has loaded (slow data)
  // would sign out without asking. Without JavaScript, nothing can wait on the phone.
  const ready = useScriptsRunning();
  const cancel = (
    <Link to="/" className="button button-ghost">
      Cancelar
    </Link>
  );
  return (
    <section className="page page-narrow login" aria-labelledby="logout-title">
      <div className="card login-card">
        <h1 id="logout-title">Cerrar Sesión</h1>
        <p>
          Se cierra tu sesión en este dispositivo, y se borra lo que el sitio guardó en él para
          usarlo sin conexión.
        </p>
        {ready ? (
          <Form method="post" action="/logout" className="form-actions" onSubmit={signOut.onSubmit}>
            <button type="submit" className="button">
              Cerrar Sesión
            </button>
            {cancel}
          </Form>
        ) : (
          <>
            <noscript>
              <form method="post" action="/logout" className="form-actions">
                <button type="submit" className="button">
                  Cerrar Sesión
                </button>
              </form>
            </noscript>
            <p className="form-actions">{cancel}</p>
          </>
        )}
        {signOut.dialog}
      </div>
    </section>
  );
}
