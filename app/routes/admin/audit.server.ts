// /admin/auditoria on the server: the audit log's page (filters, pages) and its CSV. Admins only.
import { data, type AppLoadContext } from "react-router";
import {
  AUDIT_KINDS,
  AuditFilterError,
  auditCsvRows,
  listAudit,
  readAuditFilters,
  roleName,
  type AuditFilters,
} from "~/audit/audit.server";
import type { Actor } from "~/kernel/permissions";
import { toCsv } from "~/kernel/csv";

const NO_FILTERS: AuditFilters = { person: "", kind: "", item: "", from: "", to: "" };

export async function loadAudit(request: Request, admin: Actor, context: AppLoadContext) {
  const params = new URL(request.url).searchParams;
  const kinds = Object.entries(AUDIT_KINDS).map(([value, label]) => ({ value, label }));
  let filters: AuditFilters;
  try {
    filters = readAuditFilters(params);
  } catch (error) {
    if (!(error instanceof AuditFilterError)) throw error;
    return data(
      {
        error: error.message,
        filters: NO_FILTERS,
        kinds,
        entries: [],
        total: 0,
        page: 1,
        pageCount: 1,
        timeZone: context.config.siteTimezone,
      },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const page = Number(params.get("pagina") ?? "1");
  const log = await listAudit(context.db, admin, filters, page, context.config.siteTimezone);
  return data(
    {
      error: null,
      filters,
      kinds,
      entries: log.entries.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        actorName: e.actorName,
        role: roleName(e.role),
        action: e.action,
        itemKind: e.itemKind,
        itemId: e.itemId,
        summary: e.summary,
      })),
      total: log.total,
      page: log.page,
      pageCount: log.pageCount,
      timeZone: context.config.siteTimezone,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function auditCsv(request: Request, admin: Actor, context: AppLoadContext) {
  let filters: AuditFilters;
  try {
    filters = readAuditFilters(new URL(request.url).searchParams);
  } catch (error) {
    if (!(error instanceof AuditFilterError)) throw error;
    return new Response(`${error.message}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const rows = await auditCsvRows(context.db, admin, filters, context.config.siteTimezone);
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="auditoria.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
