// An event's gallery: 'Agregar Imagen' and 'Eliminar', for admins and the event's organisers.
import type { EventActor } from "./event.server";
import { eq, and, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { eventImages, events } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError } from "~/kernel/errors";

/** 'Agregar Imagen' to an event's gallery: one or more, at the end, in order; admins and organisers. */
export async function addGalleryImage(
  db: Db,
  actor: EventActor,
  eventId: unknown,
  url: string | readonly string[],
) {
  const role = assertMay(actor, "event.gallery", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const urls = typeof url === "string" ? [url] : url;
  return db.transaction(async (tx) => {
    // Locking the event row keeps positions in order when two admins add at once.
    const [event] = await tx
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new EventNotFoundError();
    const [last] = await tx
      .select({ max: sql<number>`coalesce(max(${eventImages.position}), -1)::int` })
      .from(eventImages)
      .where(eq(eventImages.eventId, eventId));
    const first = (last?.max ?? -1) + 1;
    const images = await tx
      .insert(eventImages)
      .values(urls.map((u, i) => ({ eventId, url: u, position: first + i })))
      .returning();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.gallery.add",
      itemKind: "event",
      itemId: eventId,
      summary: `Agregó ${urls.length === 1 ? "una imagen" : `${urls.length} imágenes`} a la galería`,
    });
    return images[0]!;
  });
}

/** 'Eliminar' one gallery image; admins and the event's organisers. */
export async function removeGalleryImage(
  db: Db,
  actor: EventActor,
  eventId: unknown,
  imageId: unknown,
): Promise<void> {
  const role = assertMay(actor, "event.gallery", { eventId: String(eventId) });
  if (!isUuid(eventId) || !isUuid(imageId)) throw new EventNotFoundError();
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(eventImages)
      .where(and(eq(eventImages.id, imageId), eq(eventImages.eventId, eventId)))
      .returning({ id: eventImages.id });
    if (deleted.length === 0) throw new EventNotFoundError();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.gallery.remove",
      itemKind: "event",
      itemId: eventId,
      summary: "Quitó una imagen de la galería",
    });
  });
}
