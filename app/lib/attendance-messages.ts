// Messages of seats, the waiting list, the participants page and the calendar links.
export const ATTENDANCE_MESSAGES = {
  waitlistJoined:
    "El cupo está completo: estás en la lista de espera. Si se libera una plaza, será tuya.",
  waitlistLeft: "Has salido de la lista de espera.",
  checkedIn: "Asistencia registrada.",
  checkInUndone: "Asistencia quitada.",
  participantNotFound: "Esa persona no participa en este evento.",
  calendarLinkRenewed: "Tu enlace de calendario es nuevo; el anterior ya no funciona.",
} as const;
