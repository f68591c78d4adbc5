import { Form, useNavigation } from "react-router";
import { Dialog } from "~/ui/dialog";
import { PUBLICATION_MESSAGES } from "~/publications/messages";

const KINDS = {
  note: {
    message: PUBLICATION_MESSAGES.noteDeleteConfirm,
    intent: "deleteNote",
    param: "eliminarNota",
  },
  resource: {
    message: PUBLICATION_MESSAGES.resourceDeleteConfirm,
    intent: "deleteResource",
    param: "eliminarRecurso",
  },
  project: {
    message: PUBLICATION_MESSAGES.projectDeleteConfirm,
    intent: "deleteProject",
    param: "eliminarProyecto",
  },
} as const;

/** The question before a note, resource or project is deleted; 'Cancelar' closes it. */
export function DeletePublicationDialog({
  kind,
  id,
  title,
  closeTo,
}: {
  kind: keyof typeof KINDS;
  id: string;
  title: string | undefined;
  /** Where 'Cancelar' goes: this page without the parameter that opened the dialog. */
  closeTo: (param: string) => string;
}) {
  const busy = useNavigation().state === "submitting";
  const { message, intent, param } = KINDS[kind];
  return (
    <Dialog
      key={`${kind}-${id}`}
      title={message}
      closeTo={closeTo(param)}
      closeLabel="Cancelar"
      initialFocus="close"
      actions={
        <Form method="post" action="/projectsandnotes" replace>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="button button-danger" disabled={busy}>
            Eliminar
          </button>
        </Form>
      }
    >
      <p className="publication-text">{title}</p>
    </Dialog>
  );
}
