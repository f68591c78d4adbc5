// The specification's messages (§8), word for word. Flash messages travel by key, so a cookie can
// only ever show one of these.
import { ATTENDANCE_MESSAGES } from "./attendance-messages";
import { CERTIFICATE_MESSAGES } from "./certificate-messages";
import { CONTENT_MESSAGES } from "./content-messages";
import { MAIL_MESSAGES } from "./mail";
import { MEMBER_DATA_MESSAGES } from "./member-data-messages";
import { SITE_MESSAGES } from "./site-messages";

export const MESSAGES = {
  loginFailed: "Error during Google login. Please try again.",
  additionalDataSaved: "Datos adicionales guardados con éxito!",
  additionalDataFailed: "Error al guardar datos. Por favor, inténtalo de nuevo.",
  profileLoadFailed: "Error al cargar el perfil. Por favor, inténtalo de nuevo.",
  profileCouldNotLoad: "No se pudo cargar el perfil del usuario.",
  profileUpdated: "Perfil actualizado con éxito!",
  photoRemoved: "Quitaste tu foto: se muestra la de tu cuenta.",
  profileUpdateFailed: "Error al actualizar perfil. Por favor, inténtalo de nuevo.",
  accessDenied: "Acceso denegado. No eres un administrador.",
  // Events, galleries, participation and the admin panel (§8)
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
  eventNotFound: "Evento no encontrado.",
  eventEnded: "Este evento ya ha finalizado, no es posible participar.",
  signedOutEverywhere: "Se cerró la sesión en todos tus dispositivos.",
  badFormBody:
    "La solicitud no es un formulario válido. Vuelve a cargar la página e inténtalo de nuevo.",
  eventEndedLeave: "Este evento ya ha finalizado, no es posible dejar de participar.",
  participationLoginRequired: "Debes iniciar sesión para participar en un evento.",
  participationJoined: "¡Te has registrado para participar en este evento!",
  participationLeft: "Has dejado de participar en este evento.",
  participationFailed: "Error al actualizar la participación. Por favor, inténtalo de nuevo.",
  adminGranted: "Permisos de administrador otorgados.",
  adminRevoked: "Permisos de administrador retirados.",
  lastAdmin: "No se puede quitar el permiso al último administrador.",
  userNotFound: "Usuario no encontrado.",
  ...CONTENT_MESSAGES,
  ...MEMBER_DATA_MESSAGES,
  ...ATTENDANCE_MESSAGES,
  ...CERTIFICATE_MESSAGES,
  ...MAIL_MESSAGES,
  ...SITE_MESSAGES,
} as const;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(MESSAGES, value);
}
