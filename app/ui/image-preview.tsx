import { uploadSrcSet } from "~/kernel/images";

/** A small preview of an image field's value: uploaded (with its widths) or linked. */
export function ImagePreview({ value, size = 64 }: { value: string; size?: number }) {
  return (
    <img
      className="image-input-preview"
      src={value}
      srcSet={uploadSrcSet(value)}
      sizes={`${size}px`}
      alt=""
      width={size}
      height={size}
      referrerPolicy="no-referrer"
    />
  );
}
