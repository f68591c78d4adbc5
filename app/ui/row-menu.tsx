import { useEffect, useRef, type ReactNode } from "react";

/**
 * A row's other actions behind one button: a disclosure the browser opens and closes by itself
 * (also without scripts), holding links or forms. Escape closes it and returns focus to its
 * button; a click elsewhere, or focus leaving it, closes it too.
 */
export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (event: Event) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      event.preventDefault();
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("click", close);
    document.addEventListener("focusin", close);
    details.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("focusin", close);
      details.removeEventListener("keydown", escape);
    };
  }, []);
  return (
    <details ref={ref} className="row-menu">
      <summary className="button button-secondary button-small">
        Más<span className="visually-hidden"> acciones: {label}</span>
        <svg aria-hidden="true" viewBox="0 0 12 12" width="12" height="12">
          <path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="1.5" fill="none" />
        </svg>
      </summary>
      <ul className="row-menu-list">{children}</ul>
    </details>
  );
}
