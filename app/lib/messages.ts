// The specification's messages (§8), word for word. Flash messages travel by key, so a cookie can
// only ever show one of these.
import { CONTENT_MESSAGES } from "./content-messages";

export const MESSAGES = {
  loginFailed: "Error during Google login. Please try again.",
  additionalDataSaved: "Datos adicionales guardados con éxito!",
  additionalDataFailed: "Error al guardar datos. Por favor, inténtalo de nuevo.",
  profileLoadFailed: "Error al cargar el perfil. Por favor, inténtalo de nuevo.",
  profileCouldNotLoad: "No se pudo cargar el perfil del usuario.",
  profileUpdated: "Perfil actualizado con éxito!",
  profileUpdateFailed: "Error al actualizar perfil. Por favor, inténtalo de nuevo.",
  accessDenied: "Acceso denegado. No eres un administrador.",
  ...CONTENT_MESSAGES,
} as const;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(MESSAGES, value);
}
