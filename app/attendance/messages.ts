// Messages of seats, the waiting list, the participants page, the calendar links, check-in and
// certificates of attendance.
export const ATTENDANCE_MESSAGES = {
  waitlistJoined:
    "El cupo está completo: estás en la lista de espera. Si se libera una plaza, será tuya.",
  waitlistLeft: "Has salido de la lista de espera.",
  checkedIn: "Asistencia registrada.",
  checkInUndone: "Asistencia quitada.",
  participantNotFound: "Esa persona no participa en este evento.",
  // Check-in at the door (/admin/eventos/:id/registro)
  checkInNoProof: "Escanea el código QR de la persona o escribe su código.",
  checkInTokenInvalid: "Este código QR no es válido.",
  checkInTokenOtherEvent: "Este código QR es de otro evento.",
  checkInCodeMalformed: "El código tiene 8 letras y números, por ejemplo ABCD-2345.",
  checkInCodeUnknown: "Ese código no corresponde a ningún participante de este evento.",
  checkInNotParticipant: "Esa persona ya no participa en este evento.",
  checkInTimeInvalid: "La hora del registro no es válida.",
  // 'Mis entradas' (/mis-entradas, decision 050)
  passesCouldNotLoad: "No se pudieron cargar tus entradas.",
  passesLoadFailed: "Error al cargar tus entradas. Por favor, inténtalo de nuevo.",
  // Attendance per session (decision 044)
  calendarLinkRenewed: "Tu enlace de calendario es nuevo; el anterior ya no funciona.",
  // Certificates of attendance (docs/decisions/020-certificates.md)
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
  certificateNone: "Este evento no entrega certificado de asistencia.",
} as const;

/** A certificate refused for too few sessions (decision 044). */
export const certificateShareNotReached = (attended: number, total: number, share: number) =>
  `Asististe a ${attended} de ${total} sesiones; el certificado es para quienes asistieron al menos al ${share} % (${Math.ceil((share * total) / 100)} ${Math.ceil((share * total) / 100) === 1 ? "sesión" : "sesiones"}).`;
