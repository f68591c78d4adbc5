import { useEffect, useState, type ReactNode } from "react";
import { FieldError, FieldGroup } from "~/ui/field";

type RowValues = Record<string, string>;

/**
 * The one editor for a list of records (the leaders, a competition's events, a course's slides):
 * each row a fieldset of fields, posted as one repeated input per field (`<list>.<field>`), in
 * order. With JavaScript, '+ Añadir', 'Subir', 'Bajar' and 'Quitar' change the rows in place and
 * keep focus where the person is; without it they post the form back as `rowAction` =
 * `<list>:add`, `<list>:up-<i>`, `<list>:down-<i>` or `<list>:remove-<i>`, and the action answers
 * with the rows changed, saving nothing. (A list of plain links is the LinkListEditor's.)
 */
export function RowListEditor({
  form,
  name,
  legend,
  rowLabel,
  fields,
  values,
  max,
  hint,
  error,
  renderField,
}: {
  /** Names the form in element ids. */
  form: string;
  name: string;
  legend: string;
  /** What one row is called ('Líder'): rows are 'Líder 1', 'Líder 2'… */
  rowLabel: string;
  fields: readonly string[];
  values: readonly RowValues[];
  max: number;
  hint?: string;
  /** An error about the list as a whole. */
  error?: string;
  /** One field of one row: its control gets `id`, `name` and the value, and reports changes. */
  renderField: (field: {
    field: string;
    index: number;
    id: string;
    name: string;
    value: string;
    onChange: (value: string) => void;
  }) => ReactNode;
}) {
  const [rows, setRows] = useState(() => values.map((v, i) => ({ key: i, values: v })));
  const [nextKey, setNextKey] = useState(values.length);
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  // A new answer from the server (an error, or rows changed without script) replaces the rows.
  const signature = JSON.stringify(values);
  useEffect(() => {
    setRows(values.map((v, i) => ({ key: i, values: v })));
    setNextKey(values.length);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
  const [focus, setFocus] = useState<string | null>(null);
  useEffect(() => {
    if (focus === null) return;
    document.getElementById(focus)?.focus();
    setFocus(null);
  }, [focus]);

  const id = `${form}-${name}`;
  const label = rowLabel.toLowerCase();
  const action = (verb: string, index?: number) => ({
    type: interactive ? ("button" as const) : ("submit" as const),
    name: interactive ? undefined : "rowAction",
    value: interactive ? undefined : `${name}:${verb}${index === undefined ? "" : `-${index}`}`,
  });
  const move = (from: number, to: number, verb: "up" | "down") => {
    const next = [...rows];
    next.splice(to, 0, ...next.splice(from, 1));
    setRows(next);
    // Focus follows the row; at an end, where its button is gone, onto the other one.
    const end = (verb === "up" && to === 0) || (verb === "down" && to === rows.length - 1);
    setFocus(`${id}-${to}-${end ? (verb === "up" ? "down" : "up") : verb}`);
  };

  return (
    <FieldGroup id={id} className="row-list" legend={legend} hint={hint} error={error}>
      <FieldError id={`${id}-error`} message={error} />
      {rows.length > 0 ? (
        <ol className="row-list-rows">
          {rows.map((row, index) => (
            <li key={row.key} className="row-list-row">
              <fieldset>
                <legend>
                  {rowLabel} {index + 1}
                </legend>
                <div className="row-list-fields">
                  {fields.map((field) => (
                    <div key={field}>
                      {renderField({
                        field,
                        index,
                        id: `${id}-${index}-${field}`,
                        name: `${name}.${field}`,
                        value: row.values[field] ?? "",
                        onChange: (value) =>
                          setRows(
                            rows.map((r, i) =>
                              i === index ? { ...r, values: { ...r.values, [field]: value } } : r,
                            ),
                          ),
                      })}
                    </div>
                  ))}
                </div>
                <p className="row-list-actions">
                  {index > 0 ? (
                    <button
                      {...action("up", index)}
                      id={`${id}-${index}-up`}
                      className="button button-ghost button-small"
                      aria-label={`Subir ${label} ${index + 1}`}
                      onClick={() => interactive && move(index, index - 1, "up")}
                    >
                      Subir
                    </button>
                  ) : null}
                  {index < rows.length - 1 ? (
                    <button
                      {...action("down", index)}
                      id={`${id}-${index}-down`}
                      className="button button-ghost button-small"
                      aria-label={`Bajar ${label} ${index + 1}`}
                      onClick={() => interactive && move(index, index + 1, "down")}
                    >
                      Bajar
                    </button>
                  ) : null}
                  <button
                    {...action("remove", index)}
                    className="button button-ghost button-small"
                    aria-label={`Quitar ${label} ${index + 1}`}
                    onClick={() => {
                      if (!interactive) return;
                      setRows(rows.filter((_, i) => i !== index));
                      setFocus(
                        rows.length > 1
                          ? `${id}-${Math.min(index, rows.length - 2)}-${fields[0]}`
                          : `${id}-add`,
                      );
                    }}
                  >
                    Quitar
                  </button>
                </p>
              </fieldset>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Ninguno por ahora: esta parte no se muestra en el sitio.</p>
      )}
      {rows.length < max ? (
        <button
          {...action("add")}
          id={`${id}-add`}
          className="button button-secondary button-small"
          onClick={() => {
            if (!interactive) return;
            setRows([
              ...rows,
              { key: nextKey, values: Object.fromEntries(fields.map((f) => [f, ""])) },
            ]);
            setNextKey(nextKey + 1);
            setFocus(`${id}-${rows.length}-${fields[0]}`);
          }}
        >
          + Añadir {label}
        </button>
      ) : null}
    </FieldGroup>
  );
}
