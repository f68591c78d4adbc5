// Inputs of notes, resources and projects for the tests that publish them: valid, each with a
// title of its own, and whatever a test changes.
import { randomUUID } from "node:crypto";
import type { NoteInput, ProjectInput, ResourceInput } from "~/publications/schemas";

const uniq = () => randomUUID().slice(0, 8);

export function noteInput(overrides: Partial<NoteInput> = {}): NoteInput {
  return {
    titulo: `Nota ${uniq()}`,
    texto: "Texto de la nota.",
    enlaceImagen: null,
    enlacesAdicionales: [],
    ...overrides,
  };
}
export function resourceInput(overrides: Partial<ResourceInput> = {}): ResourceInput {
  return {
    titulo: `Recurso ${uniq()}`,
    subtitulos: "",
    texto: "Texto del recurso.",
    enlacesImagenes: [],
    enlacesVideos: [],
    enlacesWeb: [],
    ...overrides,
  };
}
export function projectInput(overrides: Partial<ProjectInput> = {}): ProjectInput {
  return {
    titulo: `Proyecto ${uniq()}`,
    descripcion: "Descripción.",
    enlacesVideo: [],
    enlacesImagen: [],
    enlacesWeb: [],
    enlacesDocumentacion: [],
    ...overrides,
  };
}
