// Uploaded images, as pages see them (docs/decisions/022-uploads.md). An uploaded image is stored
// in a text column like a link, as the path of its largest width: /imagenes/<hash>-<width>.webp.
// The smaller widths sit beside it, so the path alone gives the whole srcset.
import { isHttpUrl } from "./checks";

/** Where the browser posts files; answered with the stored images' paths (JSON). */
export const UPLOAD_ENDPOINT = "/subidas";

/** The widths every upload is resized to (those above the original's width are skipped). */
export const UPLOAD_WIDTHS = [320, 640, 1280] as const;

/** Files one request may carry; the form sends them one at a time. */
export const UPLOAD_MAX_FILES = 10;

/** The kinds of image read (from the bytes); everything is stored as WebP. */
export const UPLOAD_ACCEPT = "image/jpeg,image/png,image/webp,image/avif,image/gif";

const UPLOADED = /^\/imagenes\/([0-9a-f]{32})-([1-9][0-9]{0,4})\.webp$/;

/** A stored file's name: the content hash and one width. */
export const UPLOAD_FILE_NAME = /^([0-9a-f]{32})-([1-9][0-9]{0,4})\.webp$/;

export function uploadedImagePath(hash: string, width: number): string {
  return `/imagenes/${hash}-${width}.webp`;
}

/** The content hash of an uploaded image's path, or null for a link. */
export function uploadHash(value: string): string | null {
  return UPLOADED.exec(value)?.[1] ?? null;
}

export function isUploadedImage(value: string): boolean {
  return UPLOADED.test(value);
}

/** One of the pictures the demo content ships with (public/demo), by its path on the site. */
const DEMO_IMAGE = /^\/demo\/[a-z0-9-]{1,60}\.svg$/;

/**
 * What an image field accepts: an http(s) link, an uploaded image's path, or one of the demo's
 * own pictures (so that an admin can edit a demo event without replacing its picture).
 */
export function isImageLink(value: string): boolean {
  return isHttpUrl(value) || isUploadedImage(value) || DEMO_IMAGE.test(value);
}

/** The widths stored for an image whose largest stored width is `largest`. */
export function storedWidths(largest: number): number[] {
  return [...UPLOAD_WIDTHS.filter((w) => w < largest), largest];
}

/** An uploaded image's smallest stored width (light mode); a link as it is. */
export function smallestUpload(value: string): string {
  const match = UPLOADED.exec(value);
  if (!match) return value;
  const [, hash = "", width = ""] = match;
  return uploadedImagePath(hash, storedWidths(Number(width))[0]!);
}

/** `srcset` for an uploaded image; undefined for a link, which is shown as it is. */
export function uploadSrcSet(value: string): string | undefined {
  const match = UPLOADED.exec(value);
  if (!match) return undefined;
  const [, hash = "", width = ""] = match;
  return storedWidths(Number(width))
    .map((w) => `${uploadedImagePath(hash, w)} ${w}w`)
    .join(", ");
}
