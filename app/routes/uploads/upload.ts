// POST /subidas: image files from the image field (app/uploads/components/image-input.tsx), answered
// with the stored paths as JSON. Admins upload the site's images; with ?para=perfil, a member
// uploads their own photo, which becomes their photo at once. A process decodes a bounded number
// at once and lets a bounded number wait (503 past it); each member's uploads per minute are
// counted in the database (429 past it): docs/decisions/028-image-decoding-bound.md.
import { getUser } from "~/guards.server";
import { readUploads } from "~/uploads/read-uploads.server";
import {
  busyError,
  countUpload,
  mayUpload,
  releaseReplaced,
  storeImages,
  type UploadPurpose,
} from "~/uploads/upload.server";
import { setOwnPhoto } from "~/members/user.server";
import { siteStorage } from "~/uploads/site-storage.server";
import { MESSAGES } from "~/messages";
import { uploadSrcSet } from "~/kernel/images";
import type { Route } from "./+types/upload";
import { Refusal } from "~/kernel/errors";

const refusal = (message: string, status: number, retryAfter?: number) =>
  Response.json(
    { error: message },
    {
      status,
      headers: {
        "Cache-Control": "no-store",
        ...(retryAfter ? { "Retry-After": String(retryAfter) } : {}),
      },
    },
  );

export async function action({ request, context }: Route.ActionArgs) {
  const para = new URL(request.url).searchParams.get("para");
  if (para !== null && para !== "perfil") return refusal("Destino de la imagen no válido.", 400);
  const purpose: UploadPurpose = para === "perfil" ? "perfil" : "admin";
  const user = await getUser(request, context);
  if (!user) return refusal("Inicia sesión para subir imágenes.", 403);
  if (!mayUpload(user, purpose)) return refusal(MESSAGES.accessDenied, 403);
  const limits = {
    maxBytes: context.config.uploadMaxBytes,
    maxPixels: context.config.uploadMaxPixels,
  };
  const storage = siteStorage(context.config);
  // The place is taken before the body is read: a full line also bounds the bodies held.
  const place = context.decodeQueue.enter();
  if (!place) {
    const busy = busyError();
    return refusal(busy.message, busy.status, busy.retryAfter);
  }
  try {
    await countUpload(context.db, user, purpose, context.config.uploadsPerMinute);
    const files = await readUploads(request, limits);
    if (purpose === "perfil" && files.length > 1) return refusal("Elige una sola foto.", 400);
    const images = await storeImages(storage, user, purpose, files, limits, place);
    if (purpose === "perfil") {
      const previous = await setOwnPhoto(context.db, user, images[0]!.path);
      await releaseReplaced(context.db, storage, previous);
    }
    return Response.json(
      { images: images.map((image) => ({ ...image, srcSet: uploadSrcSet(image.path) })) },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof Refusal) return refusal(error.message, error.status, error.retryAfter);
    throw error;
  } finally {
    place.leave();
  }
}
