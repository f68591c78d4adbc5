import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { ImageInput } from "~/uploads/components/image-input";
import { LinkListEditor } from "~/ui/link-list-editor";
import type { FieldErrors } from "~/kernel/forms";
import { BODY_MAX, SUBTITULOS_MAX, TITULO_MAX } from "~/kernel/limits";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";

export type PublicationIntent =
  "createNote" | "deleteNote" | "saveResource" | "deleteResource" | "saveProject" | "deleteProject";

/** What the publications admin's action answers when it refuses a post. */
export interface PublicationActionFailure {
  intent: PublicationIntent | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  values: Record<string, unknown>;
}

type Values = Record<string, unknown> | undefined;

const str = (values: Values, key: string) =>
  typeof values?.[key] === "string" ? (values[key] as string) : "";
const list = (values: Values, key: string) =>
  Array.isArray(values?.[key]) ? (values[key] as string[]) : [];

/**
 * One publication form's state: what it shows after a refusal (the values posted and their errors,
 * focus on the first), else `saved` (the item being edited); and a key that changes after each
 * successful save of `intent`, so the form starts empty again.
 */
export function usePublicationForm(
  intent: PublicationIntent,
  answer: PublicationActionFailure | undefined,
  saved?: Values,
) {
  const navigation = useNavigation();
  const [saves, setSaves] = useState(0);
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state !== "idle" && navigation.formData?.get("intent") === intent)
      submitted.current = true;
    if (navigation.state === "idle" && submitted.current) {
      submitted.current = false;
      if (!answer || answer.intent !== intent) setSaves((c) => c + 1);
    }
  }, [navigation.state, navigation.formData, answer, intent]);
  const failure = answer?.intent === intent ? answer : undefined;
  const ref = useFocusFirstError<HTMLFormElement>(failure);
  return {
    saves,
    ref,
    values: failure?.values ?? saved,
    errors: failure?.fieldErrors ?? {},
    busy: navigation.state === "submitting",
  };
}

type FormState = ReturnType<typeof usePublicationForm>;

function TextField({
  form,
  name,
  label,
  state,
  required,
  max,
  rows,
}: {
  form: string;
  name: string;
  label: string;
  state: FormState;
  required?: boolean;
  max?: number;
  rows?: number;
}) {
  const value = str(state.values, name);
  return (
    <Field
      id={`${form}-${name}`}
      name={name}
      label={label}
      required={required}
      error={state.errors[name]}
    >
      {(control) =>
        rows ? (
          <textarea {...control} rows={rows} maxLength={max} defaultValue={value} />
        ) : (
          <input {...control} type="text" maxLength={max} defaultValue={value} />
        )
      }
    </Field>
  );
}

function Links({
  form,
  name,
  label,
  state,
  youtube,
}: {
  form: string;
  name: string;
  label: string;
  state: FormState;
  youtube?: boolean;
}) {
  return (
    <LinkListEditor
      form={form}
      name={name}
      label={label}
      youtube={youtube}
      hint={youtube ? "Solo videos de YouTube (youtube.com o youtu.be)." : undefined}
      values={list(state.values, name)}
      error={state.errors[name]}
    />
  );
}

/** The frame every publication form shares: its heading, intent, the id it edits, and its buttons. */
function PublicationForm({
  state,
  name,
  field,
  heading,
  intent,
  editingId = null,
  submit,
  cancelTo,
  extra,
  children,
}: {
  state: FormState;
  /** Names the form in its element ids ('notas', 'recursos', 'proyectos'). */
  name: string;
  /** Names the form in its fields' ids ('nota', 'recurso', 'proyecto'). */
  field: string;
  heading: string;
  intent: PublicationIntent;
  editingId?: string | null;
  submit: string;
  cancelTo?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      noValidate
      className="form"
      ref={state.ref}
      key={`${name}-${editingId ?? "new"}-${state.saves}`}
      aria-labelledby={`${name}-form-title`}
    >
      <h3 id={`${name}-form-title`}>{heading}</h3>
      <input type="hidden" name="intent" value={intent} />
      {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
      <TextField
        form={field}
        name="titulo"
        label="Título"
        state={state}
        required
        max={TITULO_MAX}
      />
      {children}
      <div className="form-actions">
        <button type="submit" className="button" disabled={state.busy}>
          {submit}
        </button>
        {editingId && cancelTo ? (
          <Link to={cancelTo} className="button button-ghost" preventScrollReset>
            Cancelar Edición
          </Link>
        ) : null}
        {extra}
      </div>
    </Form>
  );
}

/** §4 Notes: publish only (a note cannot be edited). */
export function NoteForm({ state }: { state: FormState }) {
  return (
    <PublicationForm
      state={state}
      name="notas"
      field="nota"
      heading="Formulario de Notas"
      intent="createNote"
      submit="Publicar Nota"
    >
      <TextField
        form="nota"
        name="texto"
        label="Texto"
        state={state}
        required
        max={BODY_MAX}
        rows={5}
      />
      <ImageInput
        id="nota-enlaceImagen"
        name="enlaceImagen"
        label="Imagen (opcional)"
        value={str(state.values, "enlaceImagen")}
        error={state.errors.enlaceImagen}
      />
      <Links form="nota" name="enlacesAdicionales" label="Enlace adicional" state={state} />
    </PublicationForm>
  );
}

/** §4 Resources: publish, or edit the one the address names. */
export function ResourceForm({
  state,
  editingId,
  cancelTo,
}: {
  state: FormState;
  editingId: string | null;
  cancelTo: string;
}) {
  return (
    <PublicationForm
      state={state}
      name="recursos"
      field="recurso"
      heading={editingId ? "Editar Recurso" : "Formulario de Recursos"}
      intent="saveResource"
      editingId={editingId}
      submit={editingId ? "Actualizar Recurso" : "Publicar Recurso"}
      cancelTo={cancelTo}
    >
      <TextField
        form="recurso"
        name="subtitulos"
        label="Subtítulos (opcional)"
        state={state}
        max={SUBTITULOS_MAX}
      />
      <TextField
        form="recurso"
        name="texto"
        label="Texto"
        state={state}
        required
        max={BODY_MAX}
        rows={5}
      />
      <ImageInput
        id="recurso"
        name="enlacesImagenes"
        label="Imágenes"
        rowLabel="Enlace de imagen"
        multiple
        value={list(state.values, "enlacesImagenes")}
        error={state.errors.enlacesImagenes}
      />
      <Links
        form="recurso"
        name="enlacesVideos"
        label="Enlace de video de YouTube"
        state={state}
        youtube
      />
      <Links form="recurso" name="enlacesWeb" label="Enlace web" state={state} />
    </PublicationForm>
  );
}

/** §4 Projects: publish, or edit the one the address names; the list opens in a dialog. */
export function ProjectForm({
  state,
  editingId,
  cancelTo,
  listTo,
}: {
  state: FormState;
  editingId: string | null;
  cancelTo: string;
  listTo: string;
}) {
  return (
    <PublicationForm
      state={state}
      name="proyectos"
      field="proyecto"
      heading={editingId ? "Editar Proyecto" : "Formulario de Proyectos"}
      intent="saveProject"
      editingId={editingId}
      submit={editingId ? "Actualizar Proyecto" : "Publicar Proyecto"}
      cancelTo={cancelTo}
      extra={
        <Link to={listTo} className="button button-ghost" preventScrollReset aria-haspopup="dialog">
          Mostrar Proyectos
        </Link>
      }
    >
      <TextField
        form="proyecto"
        name="descripcion"
        label="Descripción"
        state={state}
        required
        max={BODY_MAX}
        rows={5}
      />
      <Links
        form="proyecto"
        name="enlacesVideo"
        label="Enlace de video de YouTube"
        state={state}
        youtube
      />
      <ImageInput
        id="proyecto"
        name="enlacesImagen"
        label="Imágenes"
        rowLabel="Enlace de imagen"
        multiple
        value={list(state.values, "enlacesImagen")}
        error={state.errors.enlacesImagen}
      />
      <Links form="proyecto" name="enlacesWeb" label="Enlace web" state={state} />
      <Links
        form="proyecto"
        name="enlacesDocumentacion"
        label="Enlace de documentación"
        state={state}
      />
    </PublicationForm>
  );
}
