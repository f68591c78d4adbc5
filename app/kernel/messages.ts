// Messages of any form or action, whatever its domain: a body that is not a form, an unknown intent.
export const KERNEL_MESSAGES = {
  badFormBody:
    "La solicitud no es un formulario válido. Vuelve a cargar la página e inténtalo de nuevo.",
  unknownAction: "Acción desconocida.",
  // An event named by an address or a form that is not there: every domain about events says so.
  eventNotFound: "Evento no encontrado.",
  controlCharacter:
    "El texto enviado tiene un carácter de control que no se puede guardar. Escríbelo de nuevo, sin copiarlo de otro lugar.",
  valueTooLong:
    "Un campo del formulario es demasiado largo: no se guardó nada. Acórtalo y vuelve a enviarlo.",
  // The capability table's refusals (app/kernel/permissions.ts), whatever the domain asking.
  accessDenied: "Acceso denegado. No eres un administrador.",
  notAllowed: "No tienes permiso para hacer esto.",
  outsideDoorWindow:
    "El registro de entrada de este evento no está abierto ahora para el personal de puerta.",
} as const;
