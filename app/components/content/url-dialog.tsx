import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";

/**
 * A modal dialog whose open state lives in the URL (?proyectos=1, ?eliminarNota=…): the server
 * renders it open, so it works without JavaScript; in the browser it becomes a real modal
 * (showModal), Escape and 'Cerrar' go back to `closeTo`, and focus returns to the page.
 */
export function UrlDialog({
  id,
  title,
  closeTo,
  closeLabel = "Cerrar",
  children,
  actions,
  focusClose = false,
}: {
  id: string;
  title: string;
  closeTo: string;
  closeLabel?: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
  /** Start on the close link (for a destructive confirmation, the safe choice). */
  focusClose?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLAnchorElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
    if (focusClose) closeRef.current?.focus();
    return () => dialog.close();
  }, [focusClose]);
  return (
    <dialog
      ref={ref}
      className="url-dialog"
      aria-labelledby={`${id}-title`}
      open
      onCancel={(event) => {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true, replace: true });
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <div className="form-actions">
        {actions}
        <Link
          ref={closeRef}
          to={closeTo}
          className="button button-ghost"
          preventScrollReset
          replace
        >
          {closeLabel}
        </Link>
      </div>
    </dialog>
  );
}
