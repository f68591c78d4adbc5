// The reusable field schemas the forms are made of: required and optional text, http(s) URLs
// (or uploaded images), lists of links, dates and times. Imported by the browser (for the limits
// shown in the form) and by the server (which decides).
import { z } from "zod";
import { isHttpUrl, isRealDate, youtubeVideoId } from "./checks";
import { isImageLink } from "./images";
import { TEXT_MAX } from "./limits";

/** Required text, trimmed, at most `max` characters. */
export const trimmed = (required: string, max = TEXT_MAX, tooLong = `Máximo ${max} caracteres.`) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

export const URL_MAX = 2000;

/** An http(s) URL, or (for an image) the path of an uploaded image (app/kernel/images.ts). */
export const isLink = (images: boolean) => (images ? isImageLink : isHttpUrl);

/** A required http(s) URL (`images`: or an uploaded image's path). */
export const httpUrlField = (
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
export const dateField = (required: string, invalid = "La fecha no es válida.") =>
  z.string({ error: required }).trim().min(1, required).refine(isRealDate, invalid);

/** A time of day HH:MM (00:00–23:59); seconds, if sent by a browser, must be :00–:59. */
export const timeField = (
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
