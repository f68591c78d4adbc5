import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";

/** A control inside the dialog that should have focus when it opens (else its first control). */
export const INITIAL_FOCUS = { "data-autofocus": "" } as const;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

type Closing =
  /** Open state in the URL (/admin?galeria=…): closing goes to this address. */
  | { closeTo: string; onClose?: never }
  /** Open state in the component that renders it: closing calls this. */
  | { onClose: () => void; closeTo?: never; open?: boolean };

/**
 * The site's one dialog, on the native <dialog>. The server renders it open, so it works without
 * JavaScript; in the browser it becomes modal (the page behind is inert), Escape and the close
 * control close it (a state-driven one may also stay in the page closed, `open={false}`, so its
 * text is in the server's HTML), focus goes to the control marked INITIAL_FOCUS (else its first control)
 * without scrolling the page, and returns where it was when the dialog goes away.
 */
export function Dialog({
  title,
  children,
  actions,
  closeLabel = "Cerrar",
  role = "dialog",
  initialFocus = "first",
  ...closing
}: {
  /** The heading; without one, the dialog is labelled by its children (an alert's message). */
  title?: string;
  children: ReactNode;
  /** Buttons shown beside the close control, at the bottom; without them it sits by the title. */
  actions?: ReactNode;
  closeLabel?: string;
  role?: "dialog" | "alertdialog";
  /** "close": start on the close control (for a destructive confirmation, the safe choice). */
  initialFocus?: "first" | "close";
} & Closing) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const id = useId();
  const close = () => {
    if (closing.closeTo !== undefined)
      void navigate(closing.closeTo, { preventScrollReset: true, replace: true });
    else closing.onClose();
  };

  const open = closing.closeTo !== undefined || closing.open !== false;
  // The `open` attribute is for the server's HTML only: once in the browser, showModal and close
  // alone open and close it (React removing the attribute would leave a modal dialog half-closed).
  const [openAtFirst] = useState(open);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Rendered open by the server, which is not modal: open it again as a modal.
    if (dialog.open) dialog.close();
    dialog.showModal();
    const start =
      initialFocus === "close"
        ? dialog.querySelector<HTMLElement>("[data-dialog-close]")
        : (dialog.querySelector<HTMLElement>("[data-autofocus]") ??
          dialog.querySelector<HTMLElement>(FOCUSABLE));
    start?.focus({ preventScroll: true });
    return () => {
      if (dialog.open) dialog.close();
      if (previous && previous !== document.body && document.contains(previous))
        previous.focus({ preventScroll: true });
    };
  }, [initialFocus, open]);

  const closeControl =
    closing.closeTo !== undefined ? (
      <Link
        to={closing.closeTo}
        preventScrollReset
        replace
        className="button button-ghost"
        data-dialog-close=""
      >
        {closeLabel}
      </Link>
    ) : (
      <button
        type="button"
        className={role === "alertdialog" && !title ? "button" : "button button-ghost"}
        onClick={close}
        data-dialog-close=""
      >
        {closeLabel}
      </button>
    );

  return (
    // A click on the backdrop (the <dialog> itself, outside its box) closes it; Escape is the
    // dialog's own (onCancel), so the click handler adds no keyboard-only gap.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      className="dialog"
      role={role === "alertdialog" ? "alertdialog" : undefined}
      aria-modal="true"
      aria-labelledby={`${id}-label`}
      aria-describedby={title && role === "alertdialog" ? `${id}-body` : undefined}
      open={openAtFirst}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onKeyDown={(event) => {
        // Tab and Shift+Tab stay inside: the browser would otherwise leave for its own controls.
        if (event.key !== "Tab") return;
        const focusable = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }}
      onClick={(event) => {
        const dialog = ref.current;
        if (!dialog || event.target !== dialog) return;
        const box = dialog.getBoundingClientRect();
        const inside =
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom;
        if (!inside) close();
      }}
    >
      {title ? (
        <div className="dialog-heading">
          <h2 id={`${id}-label`}>{title}</h2>
          {actions ? null : closeControl}
        </div>
      ) : null}
      {!title ? (
        <div id={`${id}-label`}>{children}</div>
      ) : role === "alertdialog" ? (
        // An alert's text is its description: read with the title when focus lands on a button.
        <div id={`${id}-body`}>{children}</div>
      ) : (
        children
      )}
      {actions || !title ? (
        <div className="dialog-actions">
          {actions}
          {closeControl}
        </div>
      ) : null}
    </dialog>
  );
}

/**
 * The specification's "custom alert with an OK button". OK or Escape closes it; nothing else
 * changes (the page stays where it was).
 */
export function AlertDialog({ message, onClose }: { message: string; onClose?: () => void }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Dialog
      role="alertdialog"
      closeLabel="OK"
      onClose={() => {
        setOpen(false);
        onClose?.();
      }}
    >
      <p className="dialog-message">{message}</p>
    </Dialog>
  );
}
