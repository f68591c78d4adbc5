// /tesoreria/pagos.csv — every payment as a CSV (decision 048): name, reference, amount, state,
// who decided and when, and the receipt as a link that needs a treasurer's session.
import { requireMay } from "~/guards.server";
import { queueCsv } from "./queue.server";
import type { Route } from "./+types/queue-csv";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireMay(request, context, "payments.review");
  return queueCsv(user, context);
}
