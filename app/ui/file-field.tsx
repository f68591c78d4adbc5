// The one field for choosing a file that a form posts (a receipt, a robot's photo, the bank's QR):
// a Spanish 'Elegir archivo' button, the chosen file's name and, for a picture, a preview drawn on
// the phone before anything is sent. Before the page's scripts run (or without them) the browser's
// own control shows, styled like the site's buttons, so the form still works and tells what was
// chosen in the browser's language.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Field } from "~/ui/field";

interface Chosen {
  name: string;
  size: number;
  /** An object URL of the picture, while it is shown. */
  preview: string | null;
}

/** '2,4 MB', '830 KB': how big the chosen file is, as the hint counts its limit. */
export function fileSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024)
    return `${(bytes / 1024 / 1024).toLocaleString("es", { maximumFractionDigits: 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function FileField({
  id,
  name,
  label,
  accept,
  required,
  hint,
  error,
  button = "Elegir archivo",
}: {
  id: string;
  name: string;
  label: ReactNode;
  /** The kinds of file the server takes, as the input's `accept`. */
  accept: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** The button's words. */
  button?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  useEffect(() => setEnhanced(true), []);
  // An object URL holds the file in memory until it is let go.
  useEffect(
    () => () => {
      if (chosen?.preview) URL.revokeObjectURL(chosen.preview);
    },
    [chosen],
  );

  function choose(file: File | undefined) {
    if (!file) return setChosen(null);
    setChosen({
      name: file.name,
      size: file.size,
      preview: file.type.startsWith("image/") ? URL.createObjectURL(file) : null,
    });
  }

  const nameId = `${id}-elegido`;
  return (
    <Field id={id} name={name} label={label} required={required} hint={hint} error={error}>
      {(control) => (
        <div className={enhanced ? "file-field file-field-enhanced" : "file-field"}>
          <input
            {...control}
            ref={input}
            type="file"
            accept={accept}
            className="file-field-input"
            aria-describedby={
              enhanced
                ? [nameId, control["aria-describedby"]].filter(Boolean).join(" ")
                : control["aria-describedby"]
            }
            onChange={(event) => choose(event.target.files?.[0])}
          />
          {enhanced ? (
            <>
              {/* A second label of the same input: a click opens the phone's file chooser. */}
              <label htmlFor={id} className="button button-secondary file-field-button">
                {button}
              </label>
              <span className="file-field-name" id={nameId} aria-live="polite">
                {chosen ? (
                  <>
                    <span className="visually-hidden">Archivo elegido: </span>
                    <span className="file-field-file">{chosen.name}</span>{" "}
                    <span className="muted">({fileSizeText(chosen.size)})</span>
                  </>
                ) : (
                  "Ningún archivo elegido"
                )}
              </span>
              {chosen ? (
                <button
                  type="button"
                  className="button button-ghost button-small file-field-clear"
                  onClick={() => {
                    if (input.current) input.current.value = "";
                    setChosen(null);
                    input.current?.focus();
                  }}
                >
                  Quitar<span className="visually-hidden"> el archivo elegido</span>
                </button>
              ) : null}
              {chosen?.preview ? (
                <span className="file-field-preview-frame">
                  <img
                    className="file-field-preview"
                    src={chosen.preview}
                    alt={`Vista previa de ${chosen.name}`}
                  />
                </span>
              ) : null}
            </>
          ) : null}
        </div>
      )}
    </Field>
  );
}
