import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";

/**
 * A dialog whose open state lives in the URL (/admin?galeria=…): rendered open by the server so
 * it works without JavaScript, made modal in the browser. Escape or 'Cerrar' go to `closeTo`.
 */
export function Modal({
  id,
  title,
  closeTo,
  children,
  role = "dialog",
}: {
  id: string;
  title: string;
  closeTo: string;
  children: React.ReactNode;
  role?: "dialog" | "alertdialog";
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
  }, [id]);
  return (
    <dialog
      ref={ref}
      className="modal-dialog"
      role={role}
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      open
      onCancel={(event) => {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true });
      }}
    >
      <div className="modal-heading">
        <h2 id={`${id}-title`}>{title}</h2>
        <Link to={closeTo} preventScrollReset className="button button-ghost button-small">
          Cerrar
        </Link>
      </div>
      {children}
    </dialog>
  );
}
