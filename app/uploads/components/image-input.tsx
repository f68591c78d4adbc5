import { useEffect, useState, type ReactNode } from "react";
import { Field } from "~/ui/field";
import { LinkListEditor } from "~/ui/link-list-editor";
import { ImagePreview } from "~/ui/image-preview";
import { isUploadedImage, UPLOAD_ACCEPT, UPLOAD_ENDPOINT } from "~/kernel/images";

interface UploadState {
  busy: boolean;
  /** 0–100 over every file of the current upload. */
  percent: number;
  /** Which file of how many is on its way. */
  file: { index: number; count: number } | null;
  error: string | null;
  /** Said once the last upload went through. */
  done: string | null;
}

const IDLE: UploadState = { busy: false, percent: 0, file: null, error: null, done: null };

const UPLOAD_FAILED = "No se pudo subir la imagen. Revisa tu conexión e inténtalo de nuevo.";

/** Sends one file to the upload endpoint, telling how many of its bytes have gone. */
function sendFile(
  file: File,
  purpose: "admin" | "perfil",
  onBytes: (sent: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", purpose === "perfil" ? `${UPLOAD_ENDPOINT}?para=perfil` : UPLOAD_ENDPOINT);
    request.responseType = "json";
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (event) => onBytes(event.loaded);
    request.onerror = () => reject(new Error(UPLOAD_FAILED));
    request.onload = () => {
      const body = request.response as { images?: { path: string }[]; error?: string } | null;
      const path = body?.images?.[0]?.path;
      if (request.status === 200 && path) resolve(path);
      else reject(new Error(body?.error ?? UPLOAD_FAILED));
    };
    const form = new FormData();
    form.append("imagen", file);
    request.send(form);
  });
}

/**
 * Uploads files one request each (a slow connection then never meets the server's time limit on
 * one request), with the progress of all of them. Resolves to the stored paths, in order; on the
 * first refusal it stops and keeps the server's message in `state.error`.
 */
export function useImageUpload(purpose: "admin" | "perfil" = "admin") {
  const [state, setState] = useState<UploadState>(IDLE);
  async function upload(files: readonly File[]): Promise<string[]> {
    const total = files.reduce((sum, f) => sum + f.size, 0) || 1;
    const paths: string[] = [];
    let done = 0;
    setState({ ...IDLE, busy: true, file: { index: 1, count: files.length } });
    for (const [index, file] of files.entries()) {
      const show = (sent: number) =>
        setState((s) => ({
          ...s,
          percent: Math.min(100, Math.round(((done + sent) / total) * 100)),
          file: { index: index + 1, count: files.length },
        }));
      show(0);
      try {
        paths.push(await sendFile(file, purpose, show));
      } catch (error) {
        setState({ ...IDLE, error: (error as Error).message });
        return paths;
      }
      done += file.size;
    }
    setState({
      ...IDLE,
      done: files.length > 1 ? `${files.length} imágenes subidas.` : "Imagen subida.",
    });
    return paths;
  }
  return { state, upload };
}

/** The file button, and while files go up, a progress bar that screen readers hear of. */
export function UploadControl({
  id,
  multiple,
  state,
  onFiles,
  describedBy,
  label = multiple ? "Subir imágenes" : "Subir imagen",
}: {
  id: string;
  label?: string;
  multiple: boolean;
  state: UploadState;
  onFiles: (files: File[]) => void;
  describedBy: string | undefined;
}) {
  return (
    <div className="image-input-upload">
      <label className="button button-secondary button-small image-input-button" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="file"
        className="visually-hidden"
        accept={UPLOAD_ACCEPT}
        multiple={multiple}
        disabled={state.busy}
        aria-describedby={describedBy}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
      <p className="image-input-status" role="status">
        {state.busy && state.file ? (
          <>
            <progress max={100} value={state.percent} aria-label="Progreso de la subida" />
            <span>
              {state.file.count > 1
                ? `Subiendo ${state.file.index} de ${state.file.count}… ${state.percent} %`
                : `Subiendo… ${state.percent} %`}
            </span>
          </>
        ) : (
          state.done
        )}
      </p>
    </div>
  );
}

const HINT = "Pega un enlace (https://…) o sube un archivo JPEG, PNG, WebP, AVIF o GIF.";
const HINT_MANY =
  "Pega enlaces (https://…) o sube varios archivos a la vez: JPEG, PNG, WebP, AVIF o GIF.";

/**
 * The one image field: a link, or files uploaded from the device (docs/decisions/022-uploads.md).
 * One image: a link box that an upload fills with the stored path. `multiple`: the link-list
 * editor, to which each uploaded file adds a row. Uploading needs JavaScript; without it the
 * links still work. The form posts the links and paths, named `name`.
 */
export function ImageInput({
  id,
  name,
  label,
  value,
  error,
  multiple = false,
  required = false,
  hint,
  rowLabel = "Imagen",
}: {
  /**
   * One image: the link box's id. `multiple`: the prefix of the list's ids (`<id>-<name>-0`…, the
   * link-list editor's `form`). By default from `name`.
   */
  id?: string;
  name: string;
  label: string;
  /** The current link or path (one image), or the list of them (`multiple`). */
  value: string | readonly string[] | null | undefined;
  error?: string;
  multiple?: boolean;
  required?: boolean;
  hint?: ReactNode;
  /** `multiple`: what one row is called ('Imagen 1', 'Imagen 2'…); `label` is the list's. */
  rowLabel?: string;
}) {
  const fieldId = id ?? `imagen-${name}`;
  const fileId = `${fieldId}-archivo`;
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const { state, upload } = useImageUpload();
  const shownError = state.error ?? error;

  const initial = typeof value === "string" ? value : "";
  const [current, setCurrent] = useState(initial);
  // A new answer from the server brings back what was posted.
  useEffect(() => setCurrent(initial), [initial]);

  const [appended, setAppended] = useState<{ key: number; values: string[] }>({
    key: 0,
    values: [],
  });

  if (multiple) {
    const values = Array.isArray(value) ? (value as readonly string[]) : [];
    return (
      <div className="image-input">
        <LinkListEditor
          form={fieldId}
          name={name}
          label={rowLabel}
          legend={
            <>
              {label}
              {required ? <span aria-hidden="true"> *</span> : null}
            </>
          }
          hint={typeof hint === "string" ? hint : HINT_MANY}
          values={values}
          error={shownError ?? undefined}
          images
          append={appended}
          addLabel="+ Añadir otro enlace"
        >
          {interactive ? (
            <UploadControl
              id={fileId}
              multiple
              state={state}
              describedBy={shownError ? `${fieldId}-${name}-error` : undefined}
              onFiles={async (files) => {
                const paths = await upload(files);
                if (paths.length > 0) setAppended((a) => ({ key: a.key + 1, values: paths }));
              }}
            />
          ) : null}
        </LinkListEditor>
      </div>
    );
  }

  return (
    <Field
      id={fieldId}
      name={name}
      label={label}
      required={required}
      hint={hint ?? HINT}
      error={shownError ?? undefined}
    >
      {(control) => (
        <div className="image-input">
          <div className="image-input-row">
            {/* Uploads only: a link being typed would be fetched at every keystroke. */}
            {isUploadedImage(current.trim()) ? <ImagePreview value={current.trim()} /> : null}
            <input
              {...control}
              type="text"
              inputMode="url"
              placeholder="https://"
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          </div>
          {interactive ? (
            <UploadControl
              id={fileId}
              multiple={false}
              state={state}
              describedBy={control["aria-describedby"]}
              onFiles={async (files) => {
                const [path] = await upload(files.slice(0, 1));
                if (path) setCurrent(path);
              }}
            />
          ) : null}
        </div>
      )}
    </Field>
  );
}
