// Publications: notes, resources and projects (app/publications).
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, linkList } from "./columns.server";
import { users } from "./members.server";

const publisher = () => ({
  publisher: uuid("publisher").references(() => users.id, { onDelete: "set null" }),
  publisherName: text("publisher_name").notNull(),
  /** The Firestore document id of imported publications (npm run import). */
  firebaseId: text("firebase_id").unique(),
});

/** notas */
export const notes = pgTable(
  "notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    texto: text("texto").notNull(),
    enlaceImagen: text("enlace_imagen"),
    enlacesAdicionales: linkList("enlaces_adicionales"),
    createdAt: createdAt(),
    ...publisher(),
  },
  (t) => [index("notes_created_at_idx").on(t.createdAt)],
);

export type Note = typeof notes.$inferSelect;

/** recursos */
export const resources = pgTable(
  "resources",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    subtitulos: text("subtitulos").notNull().default(""),
    texto: text("texto").notNull(),
    enlacesImagenes: linkList("enlaces_imagenes"),
    enlacesVideos: linkList("enlaces_videos"),
    enlacesWeb: linkList("enlaces_web"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    ...publisher(),
  },
  (t) => [index("resources_created_at_idx").on(t.createdAt)],
);

export type Resource = typeof resources.$inferSelect;

/** proyectos */
export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    descripcion: text("descripcion").notNull(),
    enlacesVideo: linkList("enlaces_video"),
    enlacesImagen: linkList("enlaces_imagen"),
    enlacesWeb: linkList("enlaces_web"),
    enlacesDocumentacion: linkList("enlaces_documentacion"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    ...publisher(),
  },
  (t) => [index("projects_created_at_idx").on(t.createdAt)],
);

export type Project = typeof projects.$inferSelect;
