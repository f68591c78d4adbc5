import { useState, type FormEvent, type ReactNode } from "react";
import { useSubmit } from "react-router";
import { unsentCheckIns } from "~/attendance/check-in-store";
import { unsentEntries } from "~/competitions/judging/judge-store";
import { plural } from "~/kernel/plural";
import { Dialog } from "~/ui/dialog";

/** What waits on this phone to be sent: the door's check-ins and a judge's entries. */
export interface Unsent {
  checkIns: number;
  entries: number;
}

async function unsentOnThisPhone(): Promise<Unsent> {
  const [checkIns, entries] = await Promise.all([
    unsentCheckIns().catch(() => 0),
    unsentEntries().catch(() => 0),
  ]);
  return { checkIns, entries };
}

/** "2 registros de entrada y 1 anotación del jurado". */
export function unsentText({ checkIns, entries }: Unsent): string {
  const parts = [
    checkIns > 0 ? plural(checkIns, "registro de entrada", "registros de entrada") : null,
    entries > 0 ? plural(entries, "anotación del jurado", "anotaciones del jurado") : null,
  ].filter((part) => part !== null);
  return parts.join(" y ");
}

/**
 * Signing out makes the browser forget what the site keeps on the device (decision 019), and with
 * it the check-ins and judge's entries not yet sent. Before a sign-out form goes, this asks the
 * phone; when something waits, a dialog says what would be lost and lets the person stay (the
 * default) or sign out anyway. Without JavaScript nothing can wait on the phone, so the form posts.
 */
export function useSignOutGuard(): {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  dialog: ReactNode;
} {
  const submit = useSubmit();
  const [held, setHeld] = useState<{ form: HTMLFormElement; unsent: Unsent } | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    event.preventDefault();
    void unsentOnThisPhone().then((unsent) => {
      if (unsent.checkIns + unsent.entries === 0) void submit(form);
      else setHeld({ form, unsent });
    });
  }

  const dialog = held ? (
    <Dialog
      title="Hay registros sin enviar"
      role="alertdialog"
      closeLabel="Cancelar"
      initialFocus="close"
      onClose={() => setHeld(null)}
      actions={
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            void submit(held.form);
            setHeld(null);
          }}
        >
          Cerrar sesión igual
        </button>
      }
    >
      <p>
        Este teléfono tiene {unsentText(held.unsent)} sin enviar. Si cierras sesión ahora, se borran
        de este teléfono y no llegarán al sitio.
      </p>
      <p>Abre su página con conexión y espera a que diga «Todo enviado» antes de cerrar sesión.</p>
    </Dialog>
  ) : null;

  return { onSubmit, dialog };
}
