// What a list shows of an item: the same summary on the home page and on the item's own list,
// made once here from a database row so that the two never drift apart.
import type { Note, Project, Resource } from "~/db/schema.server";
import { safeImageUrl } from "~/kernel/checks";

/** The first sentences of a text, for a description or a card. */
export function summaryOf(text: string, max = 180): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** How much of a text a card shows. */
const CARD_TEXT = 240;

/** The first picture of a list that may be shown. */
function firstImage(urls: readonly string[]): string | null {
  return urls.find((url) => safeImageUrl(url) !== null) ?? null;
}

export interface NoteSummary {
  id: string;
  titulo: string;
  texto: string;
  imagen: string | null;
  createdAt: string;
}

export function noteSummary(
  note: Pick<Note, "id" | "titulo" | "texto" | "enlaceImagen" | "createdAt">,
): NoteSummary {
  return {
    id: note.id,
    titulo: note.titulo,
    texto: summaryOf(note.texto, CARD_TEXT),
    imagen: note.enlaceImagen,
    createdAt: note.createdAt.toISOString(),
  };
}

export interface ResourceSummary {
  id: string;
  titulo: string;
  texto: string;
  imagen: string | null;
  videos: number;
  createdAt: string;
}

export function resourceSummary(resource: Resource): ResourceSummary {
  // The subtitles on a line of their own above the text (cards keep line breaks).
  const text = summaryOf(resource.texto, CARD_TEXT);
  return {
    id: resource.id,
    titulo: resource.titulo,
    texto: resource.subtitulos ? `${summaryOf(resource.subtitulos, 120)}\n${text}` : text,
    imagen: firstImage(resource.enlacesImagenes),
    videos: resource.enlacesVideos.length,
    createdAt: resource.createdAt.toISOString(),
  };
}

export interface ProjectSummary {
  id: string;
  titulo: string;
  texto: string;
  imagen: string | null;
  createdAt: string;
}

export function projectSummary(
  project: Pick<Project, "id" | "titulo" | "descripcion" | "enlacesImagen" | "createdAt">,
): ProjectSummary {
  return {
    id: project.id,
    titulo: project.titulo,
    texto: summaryOf(project.descripcion, CARD_TEXT),
    imagen: firstImage(project.enlacesImagen),
    createdAt: project.createdAt.toISOString(),
  };
}
