// The judge's screen's data, for its script (decision 059): GET the category's state for this
// person as the phone keeps it, POST one entry (made now, or queued while offline) and read what
// happened to it as JSON. Who may: as the page; a visitor is sent to /login, anyone else gets 403.
import { entryFromForm, loadBoard, requireJudge, requireJudgeWithForm } from "./judge.server";
import type { Route } from "./+types/judge-data";

const PRIVATE = { "Cache-Control": "no-store" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireJudge(request, context, params.eventId, params.categoryId);
  return Response.json(await loadBoard(user, params.categoryId, context), { headers: PRIVATE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, form } = await requireJudgeWithForm(
    request,
    context,
    params.eventId,
    params.categoryId,
  );
  const { status, reply } = await entryFromForm(form, context, user, params.categoryId);
  return Response.json(reply, { status, headers: PRIVATE });
}
