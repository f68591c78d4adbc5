// One schema per form, and the reusable field schemas they are made of. Imported by the browser
// (for the limits shown in the form) and by the server (which decides).
import { z } from "zod";

export const GENEROS = ["Masculino", "Femenino", "Otro"] as const;
export const HABILIDADES_MAX = 30;
export const TEXT_MAX = 100;

const trimmed = (required: string, max = TEXT_MAX, tooLong = `Máximo ${max} caracteres.`) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong);

/** A calendar date written YYYY-MM-DD that really exists (no 2025-02-30). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const birthDateField = z
  .string({ error: "Escribe tu fecha de nacimiento." })
  .trim()
  .min(1, "Escribe tu fecha de nacimiento.")
  .refine(isRealDate, "La fecha de nacimiento no es una fecha válida.")
  .refine((v) => v >= "1900-01-01", "La fecha de nacimiento no es una fecha válida.")
  .refine((v) => v <= new Date().toISOString().slice(0, 10), "La fecha de nacimiento no puede estar en el futuro.");

export const habilidadesField = z
  .string({ error: "Las habilidades deben ser texto." })
  .trim()
  .max(HABILIDADES_MAX, `Las habilidades pueden tener como máximo ${HABILIDADES_MAX} caracteres.`)
  .default("");

export const generoField = z.enum(GENEROS, { error: "Selecciona un género de la lista." });

/** §2 Additional data, and the same fields when a member edits the profile. */
export const ProfileSchema = z.strictObject({
  nombreCompleto: trimmed("Escribe tu nombre completo."),
  fechaNacimiento: birthDateField,
  pais: trimmed("Escribe tu país."),
  ciudad: trimmed("Escribe tu ciudad."),
  genero: generoField,
  habilidades: habilidadesField,
});
export type ProfileInput = z.output<typeof ProfileSchema>;

/** A path on this site to come back to after signing in; anything else is ignored. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://ayllu.invalid");
    if (url.origin !== "http://ayllu.invalid") return fallback;
    // Dot segments collapse: "/..//evil.example" normalizes to "//evil.example", another site.
    if (url.pathname.startsWith("//")) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
