import { useEffect, useRef } from "react";

/** After a failed submission, move focus to the first field the server marked as invalid. */
export function useFocusFirstError<T extends HTMLElement>(trigger: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!trigger) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [trigger]);
  return ref;
}
