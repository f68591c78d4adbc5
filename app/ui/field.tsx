import type { ReactNode } from "react";

/** What a field hands to its control: the id its label names, and where its hint and error are. */
interface ControlProps {
  id: string;
  name: string;
  required: boolean | undefined;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** The ids a field's hint and error paragraphs get, and the list a control points at. */
export function describedBy(id: string, options: { hint?: boolean; error?: boolean }) {
  return (
    [options.error ? `${id}-error` : null, options.hint ? `${id}-hint` : null]
      .filter(Boolean)
      .join(" ") || undefined
  );
}

/**
 * One form field: its label (with the required mark), the control the children render with the
 * props they are given, a hint, and the server's error for it. The control is marked invalid and
 * described by the error and the hint, so a screen reader reads both and focus can find it.
 */
export function Field({
  id,
  name,
  label,
  required,
  hint,
  error,
  children,
}: {
  id: string;
  name: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children({
        id,
        name,
        required,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy(id, { hint: Boolean(hint), error: Boolean(error) }),
      })}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A field's error, next to it; the control points at it with aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}

/**
 * A field made of several controls (a list of rows): a fieldset named by its legend, with its
 * hint, described by the hint and the error. The children render the rows and the error (with
 * FieldError, id `${id}-error`) where the editor shows it.
 */
export function FieldGroup({
  id,
  className,
  legend,
  hint,
  error,
  children,
}: {
  id: string;
  className: string;
  legend: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <fieldset
      className={className}
      aria-describedby={describedBy(id, { hint: Boolean(hint), error: Boolean(error) })}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}
