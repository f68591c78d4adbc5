// The specification's messages (§8) of events, galleries and participation, word for word.
export const EVENT_MESSAGES = {
  eventPublished: "Evento publicado con éxito!",
  eventPublishFailed: "Error al publicar evento. Por favor, inténtalo de nuevo.",
  eventUpdated: "Evento actualizado con éxito!",
  eventUpdateFailed: "Error al actualizar evento. Por favor, inténtalo de nuevo.",
  eventDeleteConfirm: "¿Estás seguro de que quieres eliminar este evento?",
  eventDeleted: "Evento eliminado con éxito!",
  eventDeleteFailed: "Error al eliminar evento. Por favor, inténtalo de nuevo.",
  galleryImageAdded: "Imagen agregada a la galería!",
  galleryAddFailed: "Error al agregar imagen. Por favor, inténtalo de nuevo.",
  galleryRemoveConfirm: "¿Eliminar esta imagen de la galería?",
  galleryImageRemoved: "Imagen eliminada de la galería!",
  galleryRemoveFailed: "Error al eliminar imagen. Por favor, inténtalo de nuevo.",
  eventEnded: "Este evento ya ha finalizado, no es posible participar.",
  eventEndedLeave: "Este evento ya ha finalizado, no es posible dejar de participar.",
  // Not the specification's (its events end when they start): a member checked in at the door of
  // an event in progress stays its participant (decision 030).
  checkedInLeave: "Ya registraste tu asistencia a este evento, no es posible dejar de participar.",
  participationLoginRequired: "Debes iniciar sesión para participar en un evento.",
  participationJoined: "¡Te has registrado para participar en este evento!",
  participationLeft: "Has dejado de participar en este evento.",
  // On a competition (decision 077): a seat in the audience, not a team's registration.
  audienceJoined:
    "Te anotaste como público. Esto no inscribe a ningún equipo: para competir, inscribe tu equipo en una categoría.",
  audienceLeft: "Ya no estás anotado como público de esta competencia.",
  participationFailed: "Error al actualizar la participación. Por favor, inténtalo de nuevo.",
  // Sessions (decision 043).
  sessionAdded: "Sesión agregada.",
  sessionsGenerated: "Sesiones generadas.",
  sessionUpdated: "Sesión guardada.",
  sessionMoved:
    "Sesión guardada: avisamos por correo del cambio a quienes participan y esperan una plaza.",
  sessionCancelled:
    "Sesión cancelada: avisamos por correo a quienes participan y esperan una plaza.",
  pastSessionCancelled: "Sesión cancelada. Como ya había terminado, no se avisó por correo.",
  // Recurring meetups (decision 045).
  sessionSkipped:
    "Avisaste que no irás a esa sesión: no te enviaremos su recordatorio. Tu lugar en el evento se mantiene.",
  sessionUnskipped: "Listo: te esperamos en esa sesión.",
} as const;
