// /admin/auditoria.csv — the audit log, with the page's filters, as a CSV file. Admins only.
import { requireMay } from "~/guards.server";
import { auditCsv } from "./audit.server";
import type { Route } from "./+types/audit-csv";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireMay(request, context, "audit.read");
  return auditCsv(request, admin, context);
}
