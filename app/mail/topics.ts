// The kinds of mail a member can turn off (on /profile, or with a mail's unsubscribe link), with
// the words the site uses for them. Shared by the profile, the unsubscribe page and the server.

export const MAIL_TOPICS = [
  "participacion",
  "plazas",
  "recordatorios",
  "cambios",
  "mensajes",
] as const;
export type MailTopic = (typeof MAIL_TOPICS)[number];

/** What each topic brings, as the profile lists it and the unsubscribe page names it. */
export const MAIL_TOPIC_LABELS: Record<MailTopic, string> = {
  participacion: "Confirmaciones al inscribirte en un evento o dejarlo",
  plazas: "Avisos de una plaza libre para ti en la lista de espera",
  recordatorios: "Recordatorios antes de cada evento",
  cambios: "Cambios de fecha, hora o lugar de tus eventos, y eventos cancelados",
  mensajes: "Mensajes de los organizadores de tus eventos",
};

/** The unsubscribe link of the welcome mail, which belongs to no topic, turns every topic off. */
export const ALL_TOPICS = "todos";

export function isMailTopic(value: unknown): value is MailTopic {
  return typeof value === "string" && (MAIL_TOPICS as readonly string[]).includes(value);
}

/**
 * Transactional mail: part of something the member is doing at that moment (a sign-in link;
 * later, payment steps). It is always sent, cannot be turned off and carries no unsubscribe
 * link; the topics above are the notices and reminders, every one of which can be turned off.
 */
export const TRANSACTIONAL_MAIL_LABELS = [
  "El enlace para iniciar sesión, cuando lo pides en Iniciar Sesión",
  "Los pasos del pago de una inscripción: cómo pagar, comprobante recibido, pago confirmado o rechazado, y el aviso antes de que venza tu reserva",
] as const;
