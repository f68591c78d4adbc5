// An event's photos after it happened (added at /admin): each opens full size in a new tab.
import { uploadSrcSet } from "~/kernel/images";

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
            <a href={image.url} target="_blank" rel="noopener noreferrer">
              <img
                src={image.url}
                srcSet={uploadSrcSet(image.url)}
                sizes="(min-width: 40rem) 20rem, 50vw"
                alt={`Imagen ${i + 1} de la galería de ${eventName}`}
                loading="lazy"
                referrerPolicy="no-referrer"
              />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
