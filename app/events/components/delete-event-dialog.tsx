import { Form, Link } from "react-router";
import { Dialog, INITIAL_FOCUS } from "~/ui/dialog";
import { EVENT_MESSAGES } from "~/events/messages";

/** 'Eliminar evento': the question, the event's name, and the two answers. */
export function DeleteEventDialog({
  event,
  closeHref,
}: {
  event: { id: string; nombreEvento: string };
  closeHref: string;
}) {
  return (
    <Dialog title="Eliminar evento" closeTo={closeHref} role="alertdialog">
      <p>{EVENT_MESSAGES.eventDeleteConfirm}</p>
      <p>
        <strong>{event.nombreEvento}</strong>
      </p>
      <Form method="post" className="form-actions" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="eventId" value={event.id} />
        <button type="submit" className="button button-danger" {...INITIAL_FOCUS}>
          Eliminar
        </button>
        <Link to={closeHref} preventScrollReset className="button button-ghost">
          Cancelar
        </Link>
      </Form>
    </Dialog>
  );
}
