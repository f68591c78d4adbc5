// Mail preferences and the message to an event's participants (docs/decisions/021-mail.md).
import { z } from "zod";
import { trimmed } from "~/kernel/fields";
import { MAIL_SUBJECT_MAX, MAIL_TEXT_MAX } from "~/kernel/limits";
import { MAIL_TOPICS } from "./topics";

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
