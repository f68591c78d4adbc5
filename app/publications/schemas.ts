// The publications admin's three forms (§2 Content admin page, §5): notes, resources, projects. The
// field names are the specification's (§3); the server decides with these same schemas.
import { z } from "zod";
import { BODY_MAX, SUBTITULOS_MAX, TITULO_MAX } from "~/kernel/limits";
import { linkListField, optionalHttpUrlField, optionalText, requiredText } from "~/kernel/fields";

const titulo = requiredText("Escribe un título.", TITULO_MAX);

export const NoteSchema = z.strictObject({
  titulo,
  texto: requiredText("Escribe el texto de la nota.", BODY_MAX),
  enlaceImagen: optionalHttpUrlField(
    "El enlace de imagen debe ser una URL válida que empiece con http:// o https://.",
    { images: true },
  ),
  enlacesAdicionales: linkListField(),
});
export type NoteInput = z.output<typeof NoteSchema>;
export const NOTE_LISTS = ["enlacesAdicionales"] as const;

export const ResourceSchema = z.strictObject({
  titulo,
  subtitulos: optionalText(SUBTITULOS_MAX),
  texto: requiredText("Escribe el texto del recurso.", BODY_MAX),
  enlacesImagenes: linkListField({ images: true }),
  enlacesVideos: linkListField({ youtube: true }),
  enlacesWeb: linkListField(),
});
export type ResourceInput = z.output<typeof ResourceSchema>;
export const RESOURCE_LISTS = ["enlacesImagenes", "enlacesVideos", "enlacesWeb"] as const;

export const ProjectSchema = z.strictObject({
  titulo,
  descripcion: requiredText("Escribe la descripción del proyecto.", BODY_MAX),
  enlacesVideo: linkListField({ youtube: true }),
  enlacesImagen: linkListField({ images: true }),
  enlacesWeb: linkListField(),
  enlacesDocumentacion: linkListField(),
});
export type ProjectInput = z.output<typeof ProjectSchema>;
export const PROJECT_LISTS = [
  "enlacesVideo",
  "enlacesImagen",
  "enlacesWeb",
  "enlacesDocumentacion",
] as const;
