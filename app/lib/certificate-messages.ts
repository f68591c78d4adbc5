// Messages of the certificates of attendance (docs/decisions/020-certificates.md).
export const CERTIFICATE_MESSAGES = {
  certificateLoginRequired: "Debes iniciar sesión para descargar tu certificado de asistencia.",
  certificateNotOwn: "Solo puedes descargar tu propio certificado de asistencia.",
  certificateNotParticipant:
    "No participaste en este evento, así que no hay un certificado a tu nombre.",
  certificateNotEnded: "El certificado estará disponible cuando el evento haya finalizado.",
  certificateNotCheckedIn:
    "La asistencia a este evento no está registrada: el certificado es solo para quienes asistieron.",
  certificateNoName:
    "Falta el nombre completo en el perfil: sin él no se puede emitir el certificado.",
  certificateNotFound: "Certificado no encontrado.",
} as const;
