import { uploadSrcSet } from "~/kernel/images";

/** A member's photo (an uploaded one in the widths it has), or the first letter of their name on a coloured disc. */
export function Avatar({
  name,
  photoURL,
  size = 32,
}: {
  name: string;
  photoURL: string | null;
  size?: number;
}) {
  if (photoURL) {
    return (
      <img
        className="avatar"
        src={photoURL}
        srcSet={uploadSrcSet(photoURL)}
        sizes={`${size}px`}
        alt=""
        width={size}
        height={size}
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <span className="avatar avatar-letter" aria-hidden="true" data-size={size}>
      {name.trim().charAt(0).toUpperCase() || "U"}
    </span>
  );
}

/** §2: full name, then the account's display name, then 'Usuario'. */
export function displayNameOf(user: {
  nombreCompleto: string | null;
  displayName: string | null;
}): string {
  return user.nombreCompleto?.trim() || user.displayName?.trim() || "Usuario";
}
