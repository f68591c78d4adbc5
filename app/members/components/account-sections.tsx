// The member's account on the profile: 'Mis datos' (download everything, or delete the account,
// confirmed in a dialog) and 'Sesiones' (sign out on every device).
import { Form, Link } from "react-router";
import { useSignOutGuard } from "~/ui/sign-out-guard";
import { MEMBER_MESSAGES } from "~/members/messages";
import { Dialog } from "~/ui/dialog";

export function AccountSections({ busy }: { busy: boolean }) {
  const signOut = useSignOutGuard();
  return (
    <>
      <section className="card" aria-labelledby="my-data-title">
        <h2 id="my-data-title">Mis datos</h2>
        <p>
          Descarga todo lo que guardamos sobre ti, o elimina tu cuenta: tu perfil, tus sesiones, tus
          participaciones y tus lugares en listas de espera.
        </p>
        <div className="form-actions">
          <a href="/profile/datos" download className="button button-ghost">
            Descargar mis datos
          </a>
          <Link to="/profile?eliminar=1" className="button button-danger" preventScrollReset>
            Eliminar mi cuenta
          </Link>
        </div>
      </section>
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sesiones</h2>
        <p>
          Si iniciaste sesión en otro dispositivo y ya no lo usas, cierra la sesión en todos ellos,
          también en este.
        </p>
        <Form method="post" action="/profile" className="form-actions" onSubmit={signOut.onSubmit}>
          <input type="hidden" name="intent" value="logoutEverywhere" />
          <button type="submit" className="button button-ghost" disabled={busy}>
            Cerrar sesión en todos los dispositivos
          </button>
        </Form>
        {signOut.dialog}
      </section>
    </>
  );
}

export function DeleteAccountDialog({ busy }: { busy: boolean }) {
  // One way out ('Cancelar', where focus starts: the safe choice) beside the destructive one.
  return (
    <Dialog
      title="Eliminar mi cuenta"
      closeTo="/profile"
      closeLabel="Cancelar"
      role="alertdialog"
      initialFocus="close"
      actions={
        <Form method="post" action="/profile">
          <input type="hidden" name="intent" value="deleteAccount" />
          <input type="hidden" name="confirmar" value="eliminar" />
          <button type="submit" className="button button-danger" disabled={busy}>
            Eliminar mi cuenta
          </button>
        </Form>
      }
    >
      <p>{MEMBER_MESSAGES.accountDeleteConfirm}</p>
    </Dialog>
  );
}
