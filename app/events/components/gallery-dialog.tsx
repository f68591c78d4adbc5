import { Form, Link, useNavigation } from "react-router";
import { Dialog, INITIAL_FOCUS } from "~/ui/dialog";
import { ImageInput } from "~/uploads/components/image-input";
import { ImagePreview } from "~/ui/image-preview";
import type { FieldErrors } from "~/kernel/forms";
import { EVENT_MESSAGES } from "~/events/messages";
import { panelHref } from "~/kernel/panel-href";

interface GalleryImage {
  id: string;
  url: string;
}

/** What was posted, when the gallery form comes back with an error. */
function galleryValues(posted: unknown): string[] {
  if (Array.isArray(posted)) return posted.filter((v): v is string => typeof v === "string");
  return typeof posted === "string" ? [posted] : [];
}

/** A gallery image, small; the image's server is not told which page shows it. */
function Thumb({ url }: { url: string }) {
  return <ImagePreview value={url} size={50} />;
}

type GalleryProps = {
  gallery: { id: string; nombreEvento: string; images: readonly GalleryImage[] };
  removingImage: GalleryImage | null;
  galleryAction: { fieldErrors?: FieldErrors; values?: Record<string, unknown> } | null;
  params: URLSearchParams;
  /** The page the gallery lives on: the panel, or one event's management page. */
  base?: string;
};

/** §5 Gallery in the admin panel: the gallery's forms and images in a dialog. */
export function GalleryDialog({ closeHref, ...props }: GalleryProps & { closeHref: string }) {
  return (
    <Dialog title={`Galería de Imágenes para: ${props.gallery.nombreEvento}`} closeTo={closeHref}>
      <GalleryManager {...props} />
    </Dialog>
  );
}

/**
 * §5 Gallery: add an image by its address, remove one after confirming. In a dialog on the panel,
 * in its own section on an event's management page.
 */
export function GalleryManager({
  gallery,
  removingImage,
  galleryAction,
  params,
  base = "/admin",
}: GalleryProps) {
  const navigation = useNavigation();
  return (
    <>
      {removingImage ? (
        <div className="confirm-box" role="group" aria-labelledby="gallery-remove-question">
          <p id="gallery-remove-question">{EVENT_MESSAGES.galleryRemoveConfirm}</p>
          <Thumb url={removingImage.url} />
          <Form
            method="post"
            action={`${base}?galeria=${gallery.id}`}
            className="form-actions"
            preventScrollReset
          >
            <input type="hidden" name="intent" value="galleryRemove" />
            <input type="hidden" name="eventId" value={gallery.id} />
            <input type="hidden" name="imageId" value={removingImage.id} />
            <button type="submit" className="button button-danger" {...INITIAL_FOCUS}>
              Eliminar
            </button>
            <Link
              to={panelHref(params, { galeria: gallery.id, quitar: null }, base)}
              preventScrollReset
              className="button button-ghost"
            >
              Cancelar
            </Link>
          </Form>
        </div>
      ) : (
        <Form
          method="post"
          action={`${base}?galeria=${gallery.id}`}
          noValidate
          className="form"
          preventScrollReset
        >
          <input type="hidden" name="intent" value="galleryAdd" />
          <input type="hidden" name="eventId" value={gallery.id} />
          <ImageInput
            // Empty again once images were added.
            key={gallery.images.length}
            id="gallery"
            name="url"
            label="Imágenes"
            rowLabel="URL de la imagen"
            multiple
            required
            value={galleryValues(galleryAction?.values?.url)}
            error={galleryAction?.fieldErrors?.url}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={navigation.state === "submitting"}>
              Agregar Imagen
            </button>
          </div>
        </Form>
      )}
      {gallery.images.length === 0 ? (
        <p>No hay imágenes en la galería para este evento.</p>
      ) : (
        <ul className="gallery-admin-list">
          {gallery.images.map((image, i) => (
            <li key={image.id}>
              <Thumb url={image.url} />
              <a href={image.url} target="_blank" rel="noopener noreferrer" title={image.url}>
                {image.url.slice(0, 40)}
              </a>
              <Link
                to={panelHref(params, { galeria: gallery.id, quitar: image.id }, base)}
                preventScrollReset
                className="button button-small button-danger"
                aria-label={`Eliminar imagen ${i + 1}`}
              >
                Eliminar
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
