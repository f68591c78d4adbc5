// What the category editor and the teams' pages say after a change (decisions 051, 052).
export const COMPETITION_MESSAGES = {
  categoryAdded: "Categoría agregada.",
  categorySaved: "Categoría guardada.",
  categoryMoved: "Orden de las categorías guardado.",
  categoryDeleted: "Categoría eliminada.",
  teamCreated: "Equipo inscrito. Comparte el enlace de invitación con tus compañeros.",
  teamWaiting:
    "Equipo inscrito en la lista de espera: si se libera un lugar es del primer equipo de la lista, y te escribiremos. Mientras tanto, invita a tus compañeros.",
  teamSaved: "Equipo guardado.",
  teamPhotoSaved: "Foto del robot guardada.",
  teamPhotoRemoved: "Foto del robot quitada.",
  teamInvitationRenewed: "Nuevo enlace de invitación listo: el anterior ya no sirve.",
  teamJoined: "Te uniste al equipo.",
  teamCoachConfirmed: "Confirmaste que eres el entrenador del equipo.",
  teamCoachLeft: "Ya no eres el entrenador del equipo.",
  teamLeft: "Saliste del equipo.",
  teamMemberRemoved:
    "Integrante quitado del equipo. El enlace de invitación cambió: el anterior ya no sirve.",
  teamCoachRemoved:
    "Entrenador quitado del equipo. El enlace de invitación cambió: el anterior ya no sirve.",
  teamWithdrawn: "Equipo retirado: su lugar en la categoría quedó libre.",
  teamApproved: "Equipo aprobado.",
  teamRejected: "Equipo rechazado.",
  schoolsMerged: "Colegios unidos.",
  // The door (decision 055).
  inspectionPassed: "Inspección registrada: el robot está aprobado.",
  inspectionFailed:
    "Inspección registrada: el robot no está aprobado. El equipo puede corregirlo y volver.",
  // The judge's screen (decision 059): what organisers prepare on it.
  bracketDrawn: "Llaves sorteadas: el número del sorteo queda guardado.",
  criteriaSaved: "Criterios de la hoja de puntaje guardados.",
} as const;
