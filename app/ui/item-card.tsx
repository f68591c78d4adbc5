import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { safeImageUrl } from "~/kernel/checks";
import { imageSources, useLightMode } from "~/ui/light";

/**
 * The branded stand-in for a picture: the logo on the brand gradient, with the kind of item
 * ("Evento", "Nota"…). Decorative unless `alt` says what the missing picture was.
 */
export function ImagePlaceholder({
  label,
  alt = "",
  className,
}: {
  label: string;
  alt?: string;
  className?: string;
}) {
  const classes = ["image-placeholder", className].filter(Boolean).join(" ");
  return alt ? (
    <div className={classes} role="img" aria-label={alt}>
      <img src="/logo.svg" alt="" width={64} height={64} />
      <span>{label}</span>
    </div>
  ) : (
    <div className={classes} aria-hidden="true">
      <img src="/logo.svg" alt="" width={64} height={64} />
      <span>{label}</span>
    </div>
  );
}

/**
 * Whether an image failed to load. A failure before hydration fires no onError, so the effect also
 * looks at an image that already finished without pixels.
 */
export function useImageFailure(src: string | null) {
  const [failed, setFailed] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = ref.current;
    if (src && image && image.complete && image.naturalWidth === 0) setFailed(src);
  }, [src]);
  return { ref, failed: src !== null && failed === src, onError: () => setFailed(src) };
}

function sourcesWithSizes(sources: { src: string; srcSet: string | undefined }, sizes: string) {
  return { ...sources, sizes: sources.srcSet ? sizes : undefined };
}

/** A card's image: the whole width on a phone, a column of the grid from a tablet up. */
const CARD_SIZES = "(min-width: 64rem) 24rem, (min-width: 40rem) 50vw, 100vw";

/**
 * An image from the database, or the placeholder: when the address is missing or not one we
 * show (the safe-image check), and when the picture fails to load.
 */
export function ItemImage({
  src,
  label,
  alt = "",
  className,
  sizes = CARD_SIZES,
  main = false,
}: {
  src: string | null | undefined;
  label: string;
  alt?: string;
  className?: string;
  /** How wide the image is shown, for an uploaded image's widths (`srcset`). */
  sizes?: string;
  /** The page's main image, at the top: fetched at once and first, not when scrolled to. */
  main?: boolean;
}) {
  const safe = safeImageUrl(src);
  const { ref, failed, onError } = useImageFailure(safe);
  const light = useLightMode();
  if (!safe || failed) return <ImagePlaceholder label={label} alt={alt} className={className} />;
  return (
    <img
      ref={ref}
      className={className}
      {...sourcesWithSizes(imageSources(safe, light), sizes)}
      alt={alt}
      width={800}
      height={450}
      loading={main ? "eager" : "lazy"}
      fetchPriority={main ? "high" : undefined}
      decoding="async"
      referrerPolicy="no-referrer"
      onError={onError}
    />
  );
}

type Heading = "h2" | "h3" | "h4";

/**
 * One card for events, notes, resources and projects, on the home page and on the lists alike:
 * picture (or placeholder), title linking to the item's page, a meta line, badges, a summary.
 * The whole card is clickable through the title link; `children` (buttons) stay clickable.
 */
export function ItemCard({
  to,
  title,
  heading: HeadingTag = "h3",
  image,
  imageLabel,
  meta,
  badges,
  text,
  children,
  feature = false,
}: {
  /** The item's page; leave it out for a card whose actions are its buttons. */
  to?: string;
  title: string;
  heading?: Heading;
  image: string | null | undefined;
  /** The kind of item, shown on the placeholder: "Evento", "Nota", "Recurso", "Proyecto". */
  imageLabel: string;
  meta?: ReactNode;
  /** Plain labels, or a label with its own class (an event 'En curso': "badge-live"). */
  badges?: Array<string | { text: string; className: string }>;
  text?: string;
  children?: ReactNode;
  feature?: boolean;
}) {
  return (
    <li className={feature ? "item-card item-card-feature" : "item-card"}>
      <ItemImage src={image} label={imageLabel} className="item-card-media" />
      <div className="item-card-body">
        <HeadingTag className="item-card-title">
          {to ? (
            <Link to={to} className="item-card-link">
              {title}
            </Link>
          ) : (
            title
          )}
        </HeadingTag>
        {meta ? <p className="item-card-meta">{meta}</p> : null}
        {badges && badges.length > 0 ? (
          <ul className="badge-list" aria-label="Etiquetas">
            {badges.map((badge) =>
              typeof badge === "string" ? (
                <li key={badge} className="badge">
                  {badge}
                </li>
              ) : (
                <li key={badge.text} className={`badge ${badge.className}`}>
                  {badge.text}
                </li>
              ),
            )}
          </ul>
        ) : null}
        {text ? <p className="item-card-text">{text}</p> : null}
        {children}
      </div>
    </li>
  );
}

/** An empty list: what is missing, and the next step (links or buttons as children). */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      {children}
    </div>
  );
}
