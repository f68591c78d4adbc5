// The messages of /admin/sitio (the landing sections); part of MESSAGES (app/messages.ts) so
// that they can travel as flash messages.
export const SITE_MESSAGES = {
  lightModeInvalid: "No se pudo cambiar el modo liviano: elige activarlo o desactivarlo.",
  siteSaved: "Contenido guardado con éxito! Ya se ve en el sitio.",
  siteSaveFailed: "Error al guardar el contenido. Por favor, inténtalo de nuevo.",
  siteCheckFields: "Revisa los campos marcados: no se guardó nada.",
} as const;
