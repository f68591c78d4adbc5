// An event's photos after it happened (added at /admin): each opens full size in a new tab. A photo
// that no longer loads shows the branded placeholder, not the browser's broken image and its alt.
import { imageSources, useLightMode } from "~/ui/light";
import { ImagePlaceholder, useImageFailure } from "~/ui/item-card";

function GalleryImage({ url, alt }: { url: string; alt: string }) {
  const { ref, failed, onError } = useImageFailure(url);
  const sources = imageSources(url, useLightMode());
  if (failed)
    return (
      <ImagePlaceholder
        label="Foto no disponible"
        alt={`${alt} (no disponible)`}
        className="event-gallery-missing"
      />
    );
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <img
        ref={ref}
        src={sources.src}
        srcSet={sources.srcSet}
        sizes="(min-width: 40rem) 20rem, 50vw"
        alt={alt}
        loading="lazy"
        referrerPolicy="no-referrer"
        onError={onError}
      />
    </a>
  );
}

export function EventGallery({
  images,
  eventName,
}: {
  images: { id: string; url: string }[];
  eventName: string;
}) {
  return (
    <section className="card" aria-labelledby="gallery-title">
      <h2 id="gallery-title">Galería</h2>
      <ul className="event-gallery">
        {images.map((image, i) => (
          <li key={image.id}>
            <GalleryImage url={image.url} alt={`Imagen ${i + 1} de la galería de ${eventName}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
