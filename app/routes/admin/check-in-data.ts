// The check-in page's data, for its script: GET the participants as the phone keeps them, POST one
// check-in (a scan, a typed code, or a mark queued while offline) and read the answer as JSON.
// Admins, the event's organisers and its door staff: a visitor is sent to /login, anyone else gets 403.
import { requireEventActor } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { checkInFromForm, loadCheckIn } from "./check-in.server";
import type { Route } from "./+types/check-in-data";

const PRIVATE = { "Cache-Control": "no-store" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return Response.json(await loadCheckIn(request, params.eventId, context), { headers: PRIVATE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireEventActor(request, context, "event.checkIn", params.eventId);
  const form = await readForm(request);
  const { status, reply } = await checkInFromForm(form, context, admin, params.eventId);
  return Response.json(reply, { status, headers: PRIVATE });
}
