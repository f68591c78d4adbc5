import { useEffect, useRef, useState } from "react";

/**
 * The specification's "custom alert with an OK button": a modal alert dialog. Rendered open by
 * the server (so it shows without JavaScript), made modal in the browser; Escape or OK closes it
 * and focus goes back where it was.
 */
export function AlertDialog({ message, onClose }: { message: string; onClose?: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(true);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement as HTMLElement | null;
    if (dialog.open) dialog.close();
    dialog.showModal();
    return () => {
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [open]);

  if (!open) return null;
  const close = () => {
    ref.current?.close();
    setOpen(false);
    onClose?.();
  };
  return (
    <dialog
      ref={ref}
      className="alert-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="alert-dialog-message"
      open
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <p id="alert-dialog-message">{message}</p>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          close();
        }}
      >
        <button type="submit" className="button" autoFocus>
          OK
        </button>
      </form>
    </dialog>
  );
}
