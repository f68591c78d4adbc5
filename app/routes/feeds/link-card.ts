// /og/:kind/:id? — the picture a link preview shows for a page (docs/decisions/046-link-previews.md):
// an event's, a note's, a resource's or a project's card, or the site's ('sitio'). Public, the same
// for every client (no cookie is read or set, no redirect): WhatsApp's, Telegram's and Facebook's
// fetchers get it as any browser does. Unknown or malformed: 404.
import path from "node:path";
import fs from "node:fs/promises";
import { createHash } from "node:crypto";
import { getEvent } from "~/events/event.server";
import { eventPlace } from "~/events/event-place";
import { tipoEventoLabel } from "~/kernel/limits";
import { isUuid } from "~/kernel/checks";
import { uploadHash } from "~/kernel/images";
import { CLIENT_BUILD_DIR, PROJECT_ROOT } from "~/kernel/paths.server";
import { formatDate, formatDateRange, formatDateTime } from "~/kernel/time";
import { getNote } from "~/publications/note.server";
import { getProject } from "~/publications/project.server";
import { getResource } from "~/publications/resource.server";
import { renderCard, type CardContent } from "~/site/link-card.server";
import { site } from "~/site/copy/site";
import { siteStorage } from "~/uploads/site-storage.server";
import type { Route } from "./+types/link-card";

type Context = Route.LoaderArgs["context"];

/** A picture of this site's own, as bytes: an uploaded one, or a file of the site (the demo's). */
async function ownPicture(
  link: string | null | undefined,
  context: Context,
): Promise<Buffer | null> {
  if (!link) return null;
  try {
    const hash = uploadHash(link);
    if (hash) {
      const name = link.split("/").pop()!;
      return await siteStorage(context.config).read(name);
    }
    if (/^\/[a-z0-9][a-z0-9/_-]*\.(svg|png|jpe?g|webp)$/i.test(link) && !link.includes("..")) {
      for (const dir of [CLIENT_BUILD_DIR, path.join(PROJECT_ROOT, "public")]) {
        try {
          return await fs.readFile(path.join(dir, link));
        } catch {
          // Not in this folder: the next one (a build, or the sources under Vite).
        }
      }
    }
  } catch {
    // A picture that cannot be read: the card without it.
  }
  return null;
}

async function contentOf(kind: string, id: string | undefined, context: Context) {
  const zone = context.config.siteTimezone;
  if (kind === "sitio" && id === undefined) {
    return { kicker: "Comunidad", title: site.name, lines: [site.tagline] } as CardContent;
  }
  if (!id || !isUuid(id)) return null;
  switch (kind) {
    case "evento": {
      const event = await getEvent(context.db, id);
      if (!event) return null;
      const held = event.sessions.filter((s) => s.cancelledAt === null).length;
      const when =
        held > 1
          ? `${formatDateRange(event.startsAt, event.endsAt, zone)} · ${held} sesiones`
          : formatDateTime(event.startsAt, zone);
      return {
        kicker: `Evento · ${tipoEventoLabel(event.tipoEvento)}`,
        title: event.nombreEvento,
        lines: [when, eventPlace(event)],
        photo: await ownPicture(event.imagenEnlace, context),
      };
    }
    case "nota": {
      const note = await getNote(context.db, id);
      if (!note) return null;
      return {
        kicker: "Nota",
        title: note.titulo,
        lines: [`${formatDate(note.createdAt, zone)} · ${note.publisherName}`],
        photo: await ownPicture(note.enlaceImagen, context),
      };
    }
    case "recurso": {
      const resource = await getResource(context.db, id);
      if (!resource) return null;
      return {
        kicker: "Recurso",
        title: resource.titulo,
        lines: [resource.subtitulos ?? ""],
        photo: await ownPicture(resource.enlacesImagenes[0], context),
      };
    }
    case "proyecto": {
      const project = await getProject(context.db, id);
      if (!project) return null;
      return {
        kicker: "Proyecto",
        title: project.titulo,
        lines: [project.publisherName],
        photo: await ownPicture(project.enlacesImagen[0], context),
      };
    }
    default:
      return null;
  }
}

/** The last cards drawn, by what they show: a card is drawn again only when its content changes. */
const drawn = new Map<string, Buffer>();
const DRAWN_MAX = 64;

export async function loader({ params, context }: Route.LoaderArgs) {
  const content = await contentOf(params.kind, params.id, context);
  if (!content) {
    return new Response("Imagen no encontrada.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const key = createHash("sha256")
    .update(JSON.stringify({ ...content, photo: null }))
    .update(content.photo ?? Buffer.alloc(0))
    .digest("base64url");
  let image = drawn.get(key);
  if (!image) {
    image = await renderCard(content);
    if (drawn.size >= DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
    drawn.set(key, image);
  }
  return new Response(new Uint8Array(image), {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(image.length),
      "Cache-Control": "public, max-age=3600",
      // Any site or app may show it (the security headers say same-origin for everything else).
      "Cross-Origin-Resource-Policy": "cross-origin",
      ETag: `"${key.slice(0, 27)}"`,
    },
  });
}
