import { Field } from "~/components/field";

/**
 * The landing content's one image field (/admin/sitio): the image's address, through Field. Every
 * image of the site's sections goes through here, so that giving it an upload is one change.
 */
export function ImageField({
  id,
  name,
  label,
  value,
  required,
  hint,
  error,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  required?: boolean;
  hint?: string;
  error?: string;
  onChange?: (value: string) => void;
}) {
  return (
    <Field id={id} name={name} label={label} required={required} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode="url"
          placeholder="https://"
          value={onChange ? value : undefined}
          defaultValue={onChange ? undefined : value}
          onChange={onChange ? (event) => onChange(event.target.value) : undefined}
        />
      )}
    </Field>
  );
}
