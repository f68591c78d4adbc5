import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useSubmit } from "react-router";
import { offlineQueues, type OfflineQueue } from "~/kernel/offline-queues";
import { plural } from "~/kernel/plural";
import { Dialog } from "~/ui/dialog";

/** What waits on this phone to be sent: how many items of each registered queue. */
export type Unsent = { queue: Pick<OfflineQueue, "one" | "many">; count: number }[];

/** How long the phone may take to answer before signing out goes on without asking. */
const ASK_AT_MOST_MS = 2000;

/**
 * What waits on this phone; nothing when it cannot say (no IndexedDB, an error) or does not
 * answer in time (a database held by another tab at an older version): signing out never hangs.
 */
async function unsentOnThisPhone(): Promise<Unsent> {
  const counted = Promise.all(
    offlineQueues().map(async (queue) => ({
      queue,
      count: await queue.unsent().catch(() => 0),
    })),
  );
  return Promise.race([
    counted,
    new Promise<Unsent>((resolve) => setTimeout(() => resolve([]), ASK_AT_MOST_MS)),
  ]);
}

/** "2 registros de entrada y 1 anotación del jurado". */
export function unsentText(unsent: Unsent): string {
  return unsent
    .filter(({ count }) => count > 0)
    .map(({ queue, count }) => plural(count, queue.one, queue.many))
    .join(" y ");
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
  // A second press while the phone is asked is the same press.
  const asking = useRef(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    event.preventDefault();
    if (asking.current) return;
    asking.current = true;
    void unsentOnThisPhone()
      .then((unsent) => {
        if (unsent.every(({ count }) => count === 0)) void submit(form);
        else setHeld({ form, unsent });
      })
      .finally(() => {
        asking.current = false;
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
      <p>
        Abre su página con conexión y espera a que diga que no queda nada por enviar antes de cerrar
        sesión.
      </p>
    </Dialog>
  ) : null;

  return { onSubmit, dialog };
}
