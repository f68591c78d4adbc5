// Messages of seats, the waiting list, the participants page and the calendar links.
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
  calendarLinkRenewed: "Tu enlace de calendario es nuevo; el anterior ya no funciona.",
} as const;
