// The specification's messages (§8) of signing in, the profile and the admin panel's members,
// word for word; then those of 'Descargar mis datos' and 'Eliminar mi cuenta'.
export const MEMBER_MESSAGES = {
  loginFailed: "Error during Google login. Please try again.",
  additionalDataSaved: "Datos adicionales guardados con éxito!",
  additionalDataFailed: "Error al guardar datos. Por favor, inténtalo de nuevo.",
  profileLoadFailed: "Error al cargar el perfil. Por favor, inténtalo de nuevo.",
  profileCouldNotLoad: "No se pudo cargar el perfil del usuario.",
  profileUpdated: "Perfil actualizado con éxito!",
  photoRemoved: "Quitaste tu foto: se muestra la de tu cuenta.",
  profileUpdateFailed: "Error al actualizar perfil. Por favor, inténtalo de nuevo.",
  signedOutEverywhere: "Se cerró la sesión en todos tus dispositivos.",
  adminGranted: "Permisos de administrador otorgados.",
  adminRevoked: "Permisos de administrador retirados.",
  lastAdmin: "No se puede quitar el permiso al último administrador.",
  userNotFound: "Usuario no encontrado.",
  roleGranted: "Rol otorgado.",
  doorWindowSaved: "Horario del registro de entrada guardado.",
  certificateShareSaved: "Certificado de asistencia guardado.",
  roleRevoked: "Rol retirado.",
  roleUnknown: "Ese rol no existe.",
  roleEventMissing: "Elige el evento de ese rol.",
  roleSiteWide:
    "Ese rol es para todo el sitio, no para un evento: deja «Evento» sin elegir y vuelve a darlo.",
  roleCategoryMissing: "Elige la categoría que juzgará.",
  roleCategoryNotFound: "Esa categoría no existe en este evento.",
  roleEventNotFound: "Evento no encontrado.",
  roleNotHeld: "Ese rol ya no estaba asignado.",
  roleSeenMissing:
    "El formulario no dice qué roles veías. Vuelve a cargar la página y hazlo de nuevo.",
  roleGrantedMeanwhile:
    "Otra persona le dio este rol mientras mirabas: ya lo tiene y no cambió nada.",
  roleRevokedMeanwhile:
    "Otra persona le quitó este rol mientras mirabas: ya no lo tiene y no cambió nada.",
  roleRegrantedMeanwhile:
    "Este rol se quitó y se volvió a dar mientras mirabas: no se quitó. Revisa la página antes de hacerlo.",
  adminSeenMissing:
    "El formulario no dice si veías a esta persona como administradora. Vuelve a cargar la página.",
  adminChangedMeanwhile:
    "Otra persona cambió el permiso de administrador de esta persona mientras mirabas: no se cambió nada. Revisa la página.",
  // Staff links (docs/decisions/041-staff-links.md)
  staffLinkRevoked: "Enlace de registro revocado: quien lo tenga ya no puede registrar entradas.",
  staffLinkAlreadyRevoked: "Ese enlace ya estaba revocado.",
  staffLinkNotFound: "Enlace de registro no encontrado.",
  staffLinkLabelMissing: "Escribe para quién es el enlace (por ejemplo, su nombre).",
  staffLinkLabelTooLong: "El nombre del enlace puede tener hasta 80 caracteres.",
  staffLinkLabelInvalid: "El nombre del enlace tiene caracteres no válidos.",
  staffLinkExpiryInvalid: "La fecha de vencimiento no es válida.",
  staffLinkExpiryPast: "La fecha de vencimiento ya pasó: elige una futura.",
  staffLinkExpiryTooFar: "El enlace puede durar como mucho un año.",
  staffLinkInvalid:
    "Este enlace de registro no es válido. Revisa que esté completo o pide uno nuevo a la organización del evento.",
  staffLinkExpired: "Este enlace de registro venció. Pide uno nuevo a la organización del evento.",
  staffLinkWasRevoked:
    "Este enlace de registro fue revocado: ya no permite registrar entradas. Pide uno nuevo a la organización del evento.",
  staffLinkOnlyCheckIn: "Con un enlace de registro solo puedes registrar la entrada de su evento.",
  roleMemberNotFound:
    "No hay ningún miembro con ese correo. Pídele que inicie sesión en el sitio una vez y vuelve a intentarlo.",
  accountDeleteConfirm:
    "¿Estás seguro de que quieres eliminar tu cuenta? Se borrarán tu perfil, tus sesiones y tus participaciones. El contenido que publicaste se queda, con tu nombre. No se puede deshacer.",
  accountDeleteUnconfirmed: "Confirma que quieres eliminar tu cuenta.",
  accountDeleted: "Tu cuenta fue eliminada.",
  accountDeleteLastAdmin:
    "No puedes eliminar tu cuenta porque eres el último administrador. Nombra a otro administrador antes de eliminarla.",
  accountDeleteFailed: "Error al eliminar la cuenta. Por favor, inténtalo de nuevo.",
} as const;

/** 'Recibir un enlace por correo' (docs/decisions/034-sign-in-by-link.md). */
export const EMAIL_LINK_MESSAGES = {
  tooMany:
    "Pediste demasiados enlaces. Espera un rato (hasta una hora) antes de pedir otro, o revisa el correo que ya te enviamos.",
  invalid:
    "Este enlace ya no sirve: se usó, caducó (dura 15 minutos) o está incompleto. Pide uno nuevo.",
  sharedAddress:
    "Este correo pertenece a más de una cuenta, así que no podemos saber cuál es la tuya. Escribe a un administrador del sitio para resolverlo.",
  sendFailed: "No pudimos enviar el correo en este momento. Inténtalo de nuevo en unos minutos.",
  unavailable: "Este sitio no envía enlaces por correo.",
} as const;

/** The admin's way back in: a link printed on the server's console (console-link.server.ts). */
export const CONSOLE_LINK_MESSAGES = {
  invalid:
    "Este enlace ya no sirve: se usó, caducó (dura 15 minutos) o está incompleto. Pide otro en la consola del servidor: ./ayllu admin-link TU-CORREO (o npm run admin-link -- TU-CORREO).",
  notAdmin: (email: string) =>
    `${email} no es administrador de este sitio, y este enlace es solo para administradores. Entra con una cuenta de administrador, o pon ese correo en ADMIN_EMAILS y pide otro enlace.`,
} as const;

/** How a record names a person whose account was deleted (the audit log, decisions, payments). */
export const DELETED_ACCOUNT = "cuenta eliminada";
