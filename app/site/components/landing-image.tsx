import type { ImgHTMLAttributes } from "react";
import { imageSources, useLightMode } from "~/ui/light";

/**
 * A picture of the landing sections (/admin/sitio): a link as it is, an uploaded image with its
 * stored widths (`srcset`), so that a phone downloads the small one.
 */
export function LandingImage({
  src,
  alt,
  sizes,
  loading = "lazy",
  ...rest
}: Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "alt"> & {
  src: string;
  /** What the picture shows; "" when it only decorates. */
  alt: string;
  /** How wide the picture is shown, for the browser to choose a width of an upload. */
  sizes: string;
}) {
  const { src: shown, srcSet } = imageSources(src, useLightMode());
  return (
    <img
      {...rest}
      src={shown}
      alt={alt}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      loading={loading}
      decoding="async"
    />
  );
}
