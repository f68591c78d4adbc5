import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { ImageField } from "~/site/components/image-field";
import { Field } from "~/ui/field";
import { LinkListEditor } from "~/ui/link-list-editor";
import { RowListEditor } from "~/ui/row-list-editor";
import type { FieldErrors } from "~/kernel/forms";
import { rowsFromValues, type SiteFieldSpec, type SiteSectionSpec } from "~/site/section-fields";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";

/** One field's control, by its kind: controlled inside a row (rows move), else uncontrolled. */
function SiteField({
  spec,
  id,
  name,
  value,
  error,
  onChange,
  choices = [],
}: {
  spec: SiteFieldSpec;
  id: string;
  name: string;
  value: string;
  error?: string;
  onChange?: (value: string) => void;
  /** The events an 'event' field chooses from. */
  choices?: readonly SiteChoice[];
}) {
  if (spec.kind === "image")
    return (
      <ImageField
        id={id}
        name={name}
        label={spec.label}
        value={value}
        required={spec.required}
        error={error}
      />
    );
  const valueProps = onChange
    ? {
        value,
        onChange: (event: { target: { value: string } }) => onChange(event.target.value),
      }
    : { defaultValue: value };
  return (
    <Field
      id={id}
      name={name}
      label={spec.label}
      required={spec.required}
      hint={spec.hint}
      error={error}
    >
      {(control) =>
        spec.kind === "event" ? (
          <select {...control} {...valueProps}>
            <option value="">Ninguno</option>
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
            {value && !choices.some((c) => c.value === value) ? (
              <option value={value}>Un evento que ya no está disponible</option>
            ) : null}
          </select>
        ) : spec.kind === "textarea" ? (
          <textarea {...control} {...valueProps} rows={3} maxLength={spec.max} />
        ) : (
          <input
            {...control}
            {...valueProps}
            type={spec.kind === "url" ? "url" : spec.kind === "date" ? "date" : "text"}
            inputMode={spec.kind === "url" || spec.kind === "link" ? "url" : undefined}
            placeholder={spec.kind === "url" ? "https://" : undefined}
            maxLength={spec.max}
          />
        )
      }
    </Field>
  );
}

/** One option of an 'event' field: the event's id, and how the admin recognises it. */
export interface SiteChoice {
  value: string;
  label: string;
}

const text = (values: Record<string, unknown>, key: string) =>
  typeof values[key] === "string" ? (values[key] as string) : "";

/**
 * One section of /admin/sitio: its fields, its lists of rows, its links, and 'Guardar'. After a
 * refusal it shows what was posted with each error beside its field, and focus goes to the first.
 */
export function SiteSectionForm({
  spec,
  values,
  errors,
  refused,
  status,
  notice = null,
  choices = [],
}: {
  /** The events an 'event' field chooses from. */
  choices?: readonly SiteChoice[];
  spec: SiteSectionSpec;
  values: Record<string, unknown>;
  errors: FieldErrors;
  /** This form's post was just refused (its errors are shown). */
  refused: boolean;
  /** When the section was last saved. */
  status: string;
  /** Said under the status: that the section holds the demo's content. */
  notice?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("section") === spec.key;
  const ref = useFocusFirstError<HTMLFormElement>(
    refused && Object.keys(errors).length > 0 ? errors : null,
  );
  const form = `sitio-${spec.key}`;
  return (
    <section className="card admin-site-section" id={spec.key} aria-labelledby={`${form}-heading`}>
      <h2 id={`${form}-heading`}>{spec.title}</h2>
      <p className="muted">{spec.where}</p>
      <p className="admin-site-status">{status}</p>
      {notice}
      <Form
        method="post"
        action={`/admin/sitio?seccion=${spec.key}`}
        noValidate
        className="form"
        ref={ref}
        preventScrollReset
        // What the server answered replaces what the fields hold.
        key={JSON.stringify(values)}
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="section" value={spec.key} />
        {spec.fields.map((field) => (
          <SiteField
            key={field.name}
            spec={field}
            id={`${form}-${field.name}`}
            name={field.name}
            value={text(values, field.name)}
            error={errors[field.name]}
            choices={choices}
          />
        ))}
        {spec.lists.map((list) => (
          <RowListEditor
            key={list.name}
            form={form}
            name={list.name}
            legend={list.legend}
            rowLabel={list.rowLabel}
            fields={list.fields.map((f) => f.name)}
            values={rowsFromValues(values, list)}
            max={list.max}
            hint={list.hint}
            // About the list as a whole; an error in a row is shown beside its field.
            error={
              Object.keys(errors).some((key) => key.startsWith(`${list.name}.`))
                ? undefined
                : errors[list.name]
            }
            renderField={({ field, index, id, name, value, onChange }) => (
              <SiteField
                spec={list.fields.find((f) => f.name === field)!}
                id={id}
                name={name}
                value={value}
                onChange={onChange}
                error={errors[`${list.name}.${index}.${field}`]}
                choices={choices}
              />
            )}
          />
        ))}
        {spec.links ? (
          <LinkListEditor
            form={form}
            name={spec.links.name}
            label={spec.links.label}
            legend={spec.links.legend}
            hint={spec.links.hint}
            values={
              Array.isArray(values[spec.links.name]) ? (values[spec.links.name] as string[]) : []
            }
            error={errors[spec.links.name]}
            postBack
          />
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Guardar<span className="visually-hidden"> {spec.title}</span>
          </button>
        </div>
      </Form>
    </section>
  );
}
