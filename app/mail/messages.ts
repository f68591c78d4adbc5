// Messages of mail preferences, unsubscribe links and the mailbox.
export const MAIL_MESSAGES = {
  mailPreferencesSaved: "Preferencias de correo guardadas.",
  unsubscribeInvalid: "Este enlace para darse de baja no es válido o ya no existe.",
  participantsMessageQueued: "Mensaje en cola.",
  mailNotFound: "Ese correo no existe.",
} as const;
