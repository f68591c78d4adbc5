// Limits and choices that forms show in the browser. Kept apart from the zod schemas so that a
// page which only needs these numbers does not download the validation library.
export const GENEROS = ["Masculino", "Femenino", "Otro"] as const;
export const HABILIDADES_MAX = 30;
export const TEXT_MAX = 100;

export const TIPOS_EVENTO = ["Presencial", "Virtual", "Hibrido"] as const;
/** How each type reads: the specification stores 'Hibrido'; people read 'Híbrido'. */
const TIPO_EVENTO_LABELS: Record<string, string> = { Hibrido: "Híbrido" };
export function tipoEventoLabel(tipo: string): string {
  return TIPO_EVENTO_LABELS[tipo] ?? tipo;
}
export const EVENT_NAME_MAX = 200;
export const EVENT_DESCRIPTION_MAX = 5000;
export const CAPACITY_MAX = 100_000;
/** How long an event lasts when its end is not given (the form, the import, older backups). */
export const EVENT_DEFAULT_HOURS = 2;
export const EVENT_DEFAULT_DURATION_MS = EVENT_DEFAULT_HOURS * 60 * 60 * 1000;
/** Sessions an event may have (decision 043), cancelled ones included. */
export const EVENT_SESSIONS_MAX = 200;
export const SESSION_PLACE_MAX = 200;
export const SESSION_LINK_MAX = 2000;

export const TITULO_MAX = 200;
export const SUBTITULOS_MAX = 300;
export const BODY_MAX = 20_000;

export const MAIL_SUBJECT_MAX = 150;
export const MAIL_TEXT_MAX = 5000;

/** The longest e-mail address accepted (RFC 5321's path limit), on the sign-in link's form. */
export const EMAIL_MAX = 254;
