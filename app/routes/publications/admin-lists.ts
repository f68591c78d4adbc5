// /projectsandnotes/listas — the publications admin's lists as JSON, read again by the page when the
// live stream announces a change it does not show yet (decision 016).
import { requireMay } from "~/guards.server";
import { listPublicationsForAdmin } from "~/publications/lists.server";
import type { Route } from "./+types/admin-lists";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireMay(request, context, "publications.manage");
  return Response.json(await listPublicationsForAdmin(context.db, admin), {
    headers: { "Cache-Control": "no-store" },
  });
}
