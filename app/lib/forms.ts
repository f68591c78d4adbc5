// Shared by the browser and the server: turning a form into a value, and its errors into text.
import { z } from "zod";

export type FieldErrors = Record<string, string>;

type FormResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      fieldErrors: FieldErrors;
      formError: string | null;
      values: Record<string, unknown>;
    };

export const UNKNOWN_FIELDS_MESSAGE = "El formulario contiene campos que no se pueden cambiar";

/**
 * Reads `formData` into an object of strings (arrays for `listFields`) and checks it with `schema`.
 * A field that is not text (a file, say, or text with a NUL character) or a field the schema does
 * not know makes the whole form fail: nothing of it is used.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  formData: FormData,
  options: { listFields?: readonly string[]; ignore?: readonly string[] } = {},
): FormResult<z.output<S>> {
  const lists = new Set(options.listFields ?? []);
  const ignore = new Set(["intent", ...(options.ignore ?? [])]);
  const values: Record<string, unknown> = {};
  let wrongType: string | null = null;
  for (const [key, value] of formData) {
    if (ignore.has(key)) continue;
    // PostgreSQL cannot store a NUL character in text: refuse it here rather than fail on save.
    if (typeof value !== "string" || value.includes("\u0000")) {
      wrongType = key;
      continue;
    }
    if (lists.has(key)) {
      const list = (values[key] as string[] | undefined) ?? [];
      list.push(value);
      values[key] = list;
    } else if (key in values) {
      wrongType = key;
    } else {
      values[key] = value;
    }
  }
  for (const key of lists) if (!(key in values)) values[key] = [];
  if (wrongType) {
    return {
      ok: false,
      fieldErrors: { [wrongType]: "Este campo tiene un valor no válido." },
      formError: "Este campo tiene un valor no válido.",
      values,
    };
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: FieldErrors = {};
  let formError: string | null = null;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      formError = `${UNKNOWN_FIELDS_MESSAGE}: ${issue.keys.join(", ")}.`;
      continue;
    }
    const key = issue.path.map(String).join(".") || "form";
    const field = String(issue.path[0] ?? "form");
    if (!(field in fieldErrors)) fieldErrors[field] = issue.message;
    if (key !== field && !(key in fieldErrors)) fieldErrors[key] = issue.message;
  }
  return { ok: false, fieldErrors, formError, values };
}
