// Shared by the browser and the server: turning a form into a value, and its errors into text.
import { z } from "zod";
import { BODY_MAX } from "./limits";

export type FieldErrors = Record<string, string>;

type FormResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      fieldErrors: FieldErrors;
      formError: string | null;
      values: Record<string, unknown>;
    };

/**
 * The longest value a refused form shows again in a field with no length limit of its own (a
 * choice, a date): the longest any field takes (app/kernel/limits.ts).
 */
const ECHO_MAX = BODY_MAX;

/** `text` cut to `max` UTF-16 units, without splitting a character in two. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * What a refused form shows again: every value cut to its field's own length limit (the schema's
 * `too_big` issues name it), or to ECHO_MAX. The answer carries it twice, in the form and in the
 * page's data for the browser: a megabyte typed into a field must not come back as two.
 */
function echoOf(
  values: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): Record<string, unknown> {
  const limits = new Map<string, number>();
  for (const issue of issues) {
    if (issue.code === "too_big" && (issue.origin === "string" || issue.origin === "array"))
      limits.set(issue.path.map(String).join("."), Number(issue.maximum));
  }
  const text = (value: unknown, key: string) =>
    typeof value === "string" ? cut(value, limits.get(key) ?? ECHO_MAX) : value;
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      Array.isArray(value)
        ? value.slice(0, limits.get(key)).map((item, i) => text(item, `${key}.${i}`))
        : text(value, key),
    ]),
  );
}

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
    if (typeof value !== "string") {
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
  const parsed = schema.safeParse(values);
  if (wrongType) {
    return {
      ok: false,
      fieldErrors: { [wrongType]: "Este campo tiene un valor no válido." },
      formError: "Este campo tiene un valor no válido.",
      values: echoOf(values, parsed.error?.issues ?? []),
    };
  }
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
  return { ok: false, fieldErrors, formError, values: echoOf(values, parsed.error.issues) };
}
