import { useEffect, useState } from "react";
import { isHttpUrl, youtubeVideoId } from "~/lib/checks";
import { FieldError } from "~/components/field";

/**
 * A list of links posted as repeated inputs named `name`, in order (§4: at least one row, blanks
 * dropped by the server). With JavaScript, '+ Añadir' and 'Quitar' add and remove rows; without
 * it, the saved rows and one blank row are there to fill.
 */
export function LinkListEditor({
  form,
  name,
  label,
  values,
  error,
  youtube = false,
  hint,
}: {
  /** Names this form in element ids, so that two forms may both have, say, enlacesWeb. */
  form: string;
  name: string;
  label: string;
  values: readonly string[];
  error?: string;
  youtube?: boolean;
  hint?: string;
}) {
  const [rows, setRows] = useState<string[]>(() => [...values.filter((v) => v !== ""), ""]);
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const [nextFocus, setNextFocus] = useState<number | null>(null);
  useEffect(() => {
    if (nextFocus === null) return;
    document.getElementById(`${form}-${name}-${nextFocus}`)?.focus();
    setNextFocus(null);
  }, [nextFocus, form, name]);

  const errorId = `${form}-${name}-error`;
  const hintId = hint ? `${form}-${name}-hint` : undefined;
  const valid = (value: string) =>
    value.trim() === "" ||
    (youtube ? youtubeVideoId(value.trim()) !== null : isHttpUrl(value.trim()));

  return (
    <fieldset
      className="link-list"
      aria-describedby={
        [hintId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined
      }
    >
      <legend>{label}</legend>
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <ol className="link-list-rows">
        {rows.map((value, index) => (
          <li key={index} className="link-list-row">
            <input
              id={`${form}-${name}-${index}`}
              name={name}
              type="url"
              inputMode="url"
              value={value}
              placeholder="https://"
              aria-label={`${label} ${index + 1}`}
              aria-invalid={error && !valid(value) ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => {
                const next = [...rows];
                next[index] = event.target.value;
                setRows(next);
              }}
            />
            {interactive ? (
              <button
                type="button"
                className="button button-ghost button-small"
                aria-label={`Quitar ${label.toLowerCase()} ${index + 1}`}
                onClick={() => {
                  const next = rows.filter((_, i) => i !== index);
                  setRows(next.length === 0 ? [""] : next);
                  setNextFocus(Math.max(0, Math.min(index, next.length - 1)));
                }}
              >
                Quitar
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {interactive ? (
        <button
          type="button"
          className="button button-ghost button-small"
          aria-label={`+ Añadir ${label.toLowerCase()}`}
          onClick={() => {
            setRows([...rows, ""]);
            setNextFocus(rows.length);
          }}
        >
          + Añadir
        </button>
      ) : null}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
