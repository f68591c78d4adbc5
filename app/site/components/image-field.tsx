import { ImageInput } from "~/uploads/components/image-input";

/**
 * The landing sections' one image field (/admin/sitio): a link or an uploaded file, through the
 * site's ImageInput. Inside a row list the field keeps its own value (the row's key moves it with
 * the row); the form posts it under `name`.
 */
export function ImageField({
  id,
  name,
  label,
  value,
  required,
  error,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  required?: boolean;
  error?: string;
}) {
  return (
    <ImageInput id={id} name={name} label={label} value={value} required={required} error={error} />
  );
}
