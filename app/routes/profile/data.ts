import { requireUser } from "~/guards.server";
import { exportMemberData } from "~/member-data.server";
import type { Route } from "./+types/data";

// 'Descargar mis datos': everything held about the signed-in member, as a JSON file.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const body = await exportMemberData(context.db, user);
  const day = body.generadoEl.slice(0, 10);
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="mis-datos-ayllu-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
