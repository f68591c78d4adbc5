// One schema per form, and the reusable field schemas they are made of. Imported by the browser
// (for the limits shown in the form) and by the server (which decides).
import { z } from "zod";
import { isHttpUrl, isRealDate, isUuid, safeRedirectPath, youtubeVideoId } from "./checks";
import { isImageLink, UPLOAD_MAX_FILES } from "./uploads";
import {
  CAPACITY_MAX,
  EVENT_DESCRIPTION_MAX,
  EVENT_NAME_MAX,
  GENEROS,
  HABILIDADES_MAX,
  MAIL_SUBJECT_MAX,
  MAIL_TEXT_MAX,
  TEXT_MAX,
  TIPOS_EVENTO,
} from "./limits";
import { MAIL_TOPICS } from "./mail";

export {
  CAPACITY_MAX,
  EVENT_DESCRIPTION_MAX,
  EVENT_NAME_MAX,
  GENEROS,
  HABILIDADES_MAX,
  TEXT_MAX,
  TIPOS_EVENTO,
};
export { isHttpUrl, isRealDate, isUuid, safeRedirectPath, youtubeVideoId };

const trimmed = (required: string, max = TEXT_MAX, tooLong = `Máximo ${max} caracteres.`) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

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

// ——— Fields shared by the event and content forms ———

const URL_MAX = 2000;

/** An http(s) URL, or (for an image) the path of an uploaded image (app/lib/uploads.ts). */
const isLink = (images: boolean) => (images ? isImageLink : isHttpUrl);

/** A required http(s) URL (`images`: or an uploaded image's path). */
const httpUrlField = (
  required: string,
  invalid = "Escribe una URL válida que empiece con http:// o https://.",
  options: { images?: boolean } = {},
) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(URL_MAX, `La URL puede tener como máximo ${URL_MAX} caracteres.`)
    .refine(isLink(options.images ?? false), invalid);

/** An optional http(s) URL (`images`: or an uploaded image's path): blank becomes null. */
export const optionalHttpUrlField = (
  invalid = "Escribe una URL válida que empiece con http:// o https://.",
  options: { images?: boolean } = {},
) =>
  z
    .string({ error: invalid })
    .trim()
    .max(URL_MAX, `La URL puede tener como máximo ${URL_MAX} caracteres.`)
    .refine((v) => v === "" || isLink(options.images ?? false)(v), invalid)
    .transform((v) => (v === "" ? null : v));

/**
 * A list of links as posted by repeated inputs: kept in order, trimmed, blanks dropped, each an
 * http(s) URL (or, with `youtube`, a YouTube video URL).
 */
export const linkListField = (
  options: { youtube?: boolean; images?: boolean; max?: number } = {},
) => {
  const invalid = options.youtube
    ? "Cada enlace de video debe ser una URL de YouTube (youtube.com o youtu.be)."
    : "Cada enlace debe ser una URL válida que empiece con http:// o https://.";
  return z
    .array(z.string({ error: invalid }), { error: invalid })
    .transform((list) => list.map((v) => v.trim()).filter((v) => v !== ""))
    .pipe(
      z
        .array(
          z
            .string()
            .max(URL_MAX, `Cada enlace puede tener como máximo ${URL_MAX} caracteres.`)
            .refine(
              options.youtube ? (v) => youtubeVideoId(v) !== null : isLink(options.images ?? false),
              invalid,
            ),
        )
        .max(options.max ?? 50, `Como máximo ${options.max ?? 50} enlaces.`),
    );
};

/** A calendar date (YYYY-MM-DD) that exists. */
const dateField = (required: string, invalid = "La fecha no es válida.") =>
  z.string({ error: required }).trim().min(1, required).refine(isRealDate, invalid);

/** A time of day HH:MM (00:00–23:59); seconds, if sent by a browser, must be :00–:59. */
const timeField = (
  required: string,
  invalid = "La hora no es válida (usa HH:MM, de 00:00 a 23:59).",
) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, invalid)
    .transform((v) => v.slice(0, 5));

/** Required text with a length limit. */
export const requiredText = (required: string, max = TEXT_MAX) =>
  z.string({ error: required }).trim().min(1, required).max(max, `Máximo ${max} caracteres.`);

/** Optional text with a length limit; blank stays "". */
export const optionalText = (max = TEXT_MAX) =>
  z
    .string({ error: "Este campo debe ser texto." })
    .trim()
    .max(max, `Máximo ${max} caracteres.`)
    .default("");

// ——— Events (§5 Event form, Gallery) ———

const CAPACITY_INVALID = "El cupo debe ser un número entero de plazas (1 o más), o quedar vacío.";

/** 'Cupo (plazas, opcional)': blank means no limit (null); otherwise a whole number ≥ 1. */
const capacityField = z
  .string({ error: CAPACITY_INVALID })
  .trim()
  .default("")
  .refine((v) => v === "" || /^\d{1,9}$/.test(v), CAPACITY_INVALID)
  .refine((v) => v === "" || Number(v) >= 1, CAPACITY_INVALID)
  .refine(
    (v) => v === "" || Number(v) <= CAPACITY_MAX,
    `El cupo puede ser como máximo ${CAPACITY_MAX.toLocaleString("es-BO")} plazas.`,
  )
  .transform((v) => (v === "" ? null : Number(v)));

/**
 * §5: an event's links as saved — none for a Presencial event; otherwise trimmed, blanks dropped,
 * each an http(s) URL, at least one — or what is wrong with them.
 */
export function checkEventLinks(
  tipoEvento: string,
  links: unknown,
): { ok: true; links: string[] } | { ok: false; message: string } {
  if (tipoEvento === "Presencial") return { ok: true, links: [] };
  const parsed = linkListField({ max: 20 }).safeParse(links);
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? "Enlace no válido." };
  if (parsed.data.length === 0)
    return {
      ok: false,
      message: "Un evento Virtual o Hibrido necesita al menos un enlace del evento.",
    };
  return { ok: true, links: parsed.data };
}

/**
 * §5 Event form. Event links apply only when the type is not Presencial: then at least one is
 * required; for a Presencial event whatever was posted as links is dropped (the server decides).
 */
export const EventSchema = z
  .strictObject({
    nombreEvento: requiredText("Escribe el nombre del evento.", EVENT_NAME_MAX),
    ubicacionEvento: requiredText(
      "Escribe la ubicación del evento (país, ciudad).",
      EVENT_NAME_MAX,
    ),
    tipoEvento: z.enum(TIPOS_EVENTO, { error: "Selecciona un tipo de evento de la lista." }),
    enlacesVirtuales: z.array(z.string()).default([]),
    fechaEvento: dateField(
      "Escribe la fecha del evento.",
      "La fecha del evento no es una fecha válida.",
    ),
    horaEvento: timeField(
      "Escribe la hora del evento.",
      "La hora del evento no es válida (usa HH:MM, de 00:00 a 23:59).",
    ),
    imagenEnlace: httpUrlField(
      "Escribe el enlace de la imagen del evento.",
      "El enlace de la imagen debe ser una URL válida que empiece con http:// o https://.",
      { images: true },
    ),
    ubicacionEspecifica: optionalText(EVENT_NAME_MAX),
    descripcion: requiredText("Escribe la descripción del evento.", EVENT_DESCRIPTION_MAX),
    capacity: capacityField,
  })
  .transform((value, ctx) => {
    const links = checkEventLinks(value.tipoEvento, value.enlacesVirtuales);
    if (!links.ok) {
      ctx.addIssue({ code: "custom", path: ["enlacesVirtuales"], message: links.message });
      return z.NEVER;
    }
    return { ...value, enlacesVirtuales: links.links };
  });
export type EventInput = z.output<typeof EventSchema>;

/** §5 Gallery: one or more images, each an http(s) URL or an uploaded image's path. */
export const GalleryImageSchema = z.strictObject({
  url: z
    .array(z.string({ error: "Escribe la URL de la imagen." }))
    .transform((list) => list.map((v) => v.trim()).filter((v) => v !== ""))
    .pipe(
      z
        .array(
          z
            .string()
            .max(URL_MAX, `La URL puede tener como máximo ${URL_MAX} caracteres.`)
            .refine(isLink(true), "La URL de la imagen debe empezar con http:// o https://."),
        )
        .min(1, "Escribe la URL de la imagen.")
        .max(UPLOAD_MAX_FILES * 5, `Como máximo ${UPLOAD_MAX_FILES * 5} imágenes a la vez.`),
    ),
});

// ——— Mail (docs/decisions/021-mail.md) ———

/** /profile 'Correos': the topics left on (checked); every other one is turned off. */
export const MailPreferencesSchema = z.strictObject({
  activos: z
    .array(z.enum(MAIL_TOPICS, { error: "Elige tipos de correo de la lista." }))
    .max(MAIL_TOPICS.length, "Elige tipos de correo de la lista."),
});

/** 'Enviar mensaje a los participantes': a one-line subject, the text, and whether those waiting get it. */
export const ParticipantsMessageSchema = z.strictObject({
  asunto: trimmed("Escribe el asunto del mensaje.", MAIL_SUBJECT_MAX)
    // A line break in a subject would start a header of its own.
    .refine((v) => !/[\r\n]/.test(v), "El asunto debe ser una sola línea."),
  mensaje: trimmed("Escribe el mensaje.", MAIL_TEXT_MAX),
  incluirEspera: z
    .literal("1", { error: "Esta opción tiene un valor no válido." })
    .optional()
    .transform((v) => v === "1"),
});
export type ParticipantsMessageInput = z.output<typeof ParticipantsMessageSchema>;
