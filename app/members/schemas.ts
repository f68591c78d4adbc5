// §2 Additional data and the profile: the member's fields and the one schema of both forms.
import { z } from "zod";
import { isRealDate } from "~/kernel/checks";
import { trimmed } from "~/kernel/fields";
import { EMAIL_MAX, GENEROS, HABILIDADES_MAX } from "~/kernel/limits";

export const birthDateField = z
  .string({ error: "Escribe tu fecha de nacimiento." })
  .trim()
  .min(1, "Escribe tu fecha de nacimiento.")
  .refine(isRealDate, "La fecha de nacimiento no es una fecha válida.")
  .refine((v) => v >= "1900-01-01", "La fecha de nacimiento no es una fecha válida.")
  .refine(
    (v) => v <= new Date().toISOString().slice(0, 10),
    "La fecha de nacimiento no puede estar en el futuro.",
  );

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

/** 'Recibir un enlace por correo': the address, as a person types it. */
export const EmailLinkRequestSchema = z.object({
  email: z
    .string({ error: "Escribe tu correo electrónico." })
    .trim()
    .min(1, "Escribe tu correo electrónico.")
    .max(EMAIL_MAX, `El correo puede tener como máximo ${EMAIL_MAX} caracteres.`)
    .pipe(z.email({ error: "Escribe un correo electrónico válido, como nombre@ejemplo.com." })),
});
