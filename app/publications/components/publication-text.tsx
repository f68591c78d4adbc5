import { isHttpUrl, safeImageUrl } from "~/kernel/checks";
import { imageSources, useLightMode } from "~/ui/light";

/** Text typed by an admin: shown as text (never HTML), its line breaks kept. */
export function PublicationText({ text, className }: { text: string; className?: string }) {
  return <p className={["publication-text", className].filter(Boolean).join(" ")}>{text}</p>;
}

/** A list of outside links; anything but http(s) is left out (the server never stores one). */
export function LinkList({ title, links }: { title: string; links: readonly string[] }) {
  const safe = links.filter(isHttpUrl);
  if (safe.length === 0) return null;
  return (
    <section className="publication-links">
      <h2>{title}</h2>
      <ul>
        {safe.map((link, index) => (
          <li key={`${index}-${link}`}>
            <a href={link} rel="noopener noreferrer nofollow" target="_blank">
              {link}
              <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** An image an admin linked; only http(s) or this site's own paths, else nothing. */
export function PublicationImage({
  src,
  alt,
  className,
}: {
  src: string | null | undefined;
  alt: string;
  className?: string;
}) {
  const safe = safeImageUrl(src);
  const light = useLightMode();
  if (!safe) return null;
  const { src: shown, srcSet } = imageSources(safe, light);
  return (
    <img
      className={className}
      src={shown}
      srcSet={srcSet}
      sizes={srcSet ? "(min-width: 48rem) 46rem, 100vw" : undefined}
      alt={alt}
      loading="lazy"
    />
  );
}
