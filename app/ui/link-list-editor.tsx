import { useEffect, useState, type ReactNode } from "react";
import { isHttpUrl, youtubeVideoId } from "~/kernel/checks";
import { ImagePreview } from "~/ui/image-preview";
import { isImageLink, isUploadedImage } from "~/kernel/images";
import { FieldError, FieldGroup } from "~/ui/field";

/**
 * The one editor for a list of links (an event's links, a note's, a resource's, a project's),
 * posted as repeated inputs named `name`, in order; the server drops blank rows. With JavaScript,
 * '+ Añadir' adds a row and focuses it, and 'Quitar' removes one while there is more than one.
 * Without it, either a blank row at the end is there to fill, or (`postBack`) the buttons post the
 * form back as `linkAction` = `add` / `remove-<index>` and the action answers with the rows changed.
 */
export function LinkListEditor({
  form,
  name,
  label,
  legend = label,
  values,
  error,
  hint,
  youtube = false,
  required = false,
  addLabel = `+ Añadir ${label.toLowerCase()}`,
  postBack = false,
  images = false,
  append,
  children,
}: {
  /** Names this form in element ids, so that two forms may both have, say, enlacesWeb. */
  form: string;
  name: string;
  /** What one row is called ('Enlace web'); rows are '<label> 1', '<label> 2'… */
  label: string;
  legend?: ReactNode;
  values: readonly string[];
  error?: string;
  hint?: string;
  youtube?: boolean;
  /** Each row must be filled (asked only once the page runs script; the server decides). */
  required?: boolean;
  addLabel?: string;
  postBack?: boolean;
  /** Rows are images: a link, or the path of an uploaded image (app/uploads/components/image-input.tsx). */
  images?: boolean;
  /** Rows to add at the end (uploaded images); each new `key` adds its `values` once. */
  append?: { key: number; values: readonly string[] };
  /** More controls for the list, after its add button (the image field's upload). */
  children?: ReactNode;
}) {
  const initial = () =>
    postBack
      ? values.length > 0
        ? [...values]
        : [""]
      : [...values.filter((value) => value !== ""), ""];
  const [rows, setRows] = useState<string[]>(initial);
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  // A new answer from the server (an error, or rows changed without script) replaces the rows.
  const signature = JSON.stringify(values);
  useEffect(() => {
    setRows(initial());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
  useEffect(() => {
    if (!append || append.values.length === 0) return;
    setRows((current) => [...current.filter((v) => v.trim() !== ""), ...append.values, ""]);
    // Only a new key adds rows; the values come with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [append?.key]);
  const [nextFocus, setNextFocus] = useState<number | null>(null);
  useEffect(() => {
    if (nextFocus === null) return;
    document.getElementById(`${form}-${name}-${nextFocus}`)?.focus();
    setNextFocus(null);
  }, [nextFocus, form, name]);

  const id = `${form}-${name}`;
  const valid = (value: string) =>
    value.trim() === "" ||
    (youtube
      ? youtubeVideoId(value.trim()) !== null
      : (images ? isImageLink : isHttpUrl)(value.trim()));
  // The rows the error is about; when it is about the list as a whole, the first row.
  const invalid = error ? rows.map((value) => !valid(value)) : rows.map(() => false);
  if (error && !invalid.includes(true)) invalid[0] = true;
  const withButtons = interactive || postBack;

  return (
    <FieldGroup id={id} className="link-list" legend={legend} hint={hint} error={error}>
      <ol className="link-list-rows">
        {rows.map((value, index) => (
          <li key={index} className="link-list-row">
            {images && isUploadedImage(value.trim()) ? (
              <ImagePreview value={value.trim()} size={44} />
            ) : null}
            <input
              id={`${id}-${index}`}
              name={name}
              type={images ? "text" : "url"}
              inputMode="url"
              value={value}
              placeholder="https://"
              required={required && interactive}
              aria-label={`${label} ${index + 1}`}
              aria-invalid={invalid[index] ? true : undefined}
              aria-describedby={invalid[index] ? `${id}-error` : undefined}
              onChange={(event) => {
                const next = [...rows];
                next[index] = event.target.value;
                setRows(next);
              }}
            />
            {withButtons && rows.length > 1 ? (
              <button
                type={interactive ? "button" : "submit"}
                name={interactive ? undefined : "linkAction"}
                value={interactive ? undefined : `remove-${index}`}
                className="button button-ghost button-small"
                aria-label={`Quitar ${label.toLowerCase()} ${index + 1}`}
                onClick={() => {
                  if (!interactive) return;
                  setRows(rows.filter((_, i) => i !== index));
                  setNextFocus(Math.min(index, rows.length - 2));
                }}
              >
                Quitar
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      <FieldError id={`${id}-error`} message={error} />
      {withButtons ? (
        <button
          type={interactive ? "button" : "submit"}
          name={interactive ? undefined : "linkAction"}
          value={interactive ? undefined : "add"}
          className="button button-ghost button-small"
          onClick={() => {
            if (!interactive) return;
            setRows([...rows, ""]);
            setNextFocus(rows.length);
          }}
        >
          {addLabel}
        </button>
      ) : null}
      {children}
    </FieldGroup>
  );
}
