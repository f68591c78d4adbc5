// The audit log (docs/decisions/039-audit-log.md): who did what to which item, under which role,
// written by the model functions in the transaction of the change, so that a change and its entry
// land together or not at all.
import { and, desc, eq, gte, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, type User } from "~/db/schema.server";
import { isRealDate } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";
import { formatSortableDateTime, zonedToInstant } from "~/kernel/time";
import { assertMay, isRoleKind, ROLE_KINDS, type Actor, type RoleKind } from "~/kernel/permissions";

/** Who is written as the author: a member, or the system (an import without --como, a restore). */
export type AuditActor =
  | (Pick<User, "id"> & Partial<Pick<User, "displayName" | "nombreCompleto" | "email">>)
  | { system: string };

export interface AuditInput {
  actor: AuditActor;
  role: "admin" | RoleKind | "system";
  action: string;
  itemKind: string;
  itemId?: string | null;
  summary: string;
  at?: Date;
}

/** The name an entry keeps for its author (shown even if the member later changes theirs). */
export function auditName(actor: AuditActor): string {
  if ("system" in actor) return actor.system;
  return (
    actor.nombreCompleto?.trim() || actor.displayName?.trim() || actor.email?.trim() || actor.id
  );
}

const SUMMARY_MAX = 500;

/** Writes one entry; pass the transaction of the change. */
export async function recordAudit(db: Db, entry: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: "system" in entry.actor ? null : entry.actor.id,
    actorName: auditName(entry.actor),
    role: entry.role,
    action: entry.action,
    itemKind: entry.itemKind,
    itemId: entry.itemId ?? null,
    summary: [...entry.summary].slice(0, SUMMARY_MAX).join(""),
    ...(entry.at ? { at: entry.at } : {}),
  });
}

// ——— Reading the log (admins) ———

export const AUDIT_PAGE_SIZE = 50;
/** A CSV holds at most this many entries (the newest that match); filters narrow it. */
export const AUDIT_CSV_MAX = 50_000;
const FILTER_MAX = 100;

/** The kinds of action the page filters by, with their names. */
export const AUDIT_KINDS = {
  event: "Eventos",
  "event.gallery": "Galerías",
  "event.message": "Mensajes a participantes",
  checkIn: "Registro de entrada",
  role: "Roles",
  staffLink: "Enlaces de registro",
  admin: "Administradores",
  note: "Notas",
  resource: "Recursos",
  project: "Proyectos",
  site: "Contenido del sitio",
  payments: "Pagos",
  competition: "Competencias",
  system: "Sistema",
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;

export interface AuditFilters {
  /** Part of the author's name. */
  person: string;
  kind: AuditKind | "";
  /** An item's id (an event's, a member's, a note's…). */
  item: string;
  /** YYYY-MM-DD, in the site's time zone. */
  from: string;
  to: string;
}

export class AuditFilterError extends Refusal {
  override name = "AuditFilterError";
  constructor(message: string) {
    super(message, 400);
  }
}

/** The filters of the page's address, checked: anything malformed is a 400 with the reason. */
export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const text = (name: string) => {
    const value = (params.get(name) ?? "").trim();
    if (value.length > FILTER_MAX) throw new AuditFilterError("Un filtro es demasiado largo.");
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f]/.test(value))
      throw new AuditFilterError("Un filtro tiene caracteres no válidos.");
    return value;
  };
  const kind = text("tipo");
  if (kind !== "" && !Object.hasOwn(AUDIT_KINDS, kind))
    throw new AuditFilterError("Ese tipo de acción no existe.");
  const from = text("desde");
  const to = text("hasta");
  for (const d of [from, to]) {
    if (d !== "" && !isRealDate(d)) throw new AuditFilterError("Las fechas van como AAAA-MM-DD.");
  }
  return {
    person: text("persona"),
    kind: kind as AuditKind | "",
    item: text("elemento"),
    from,
    to,
  };
}

function auditWhere(filters: AuditFilters, timeZone: string) {
  const conditions: SQL[] = [];
  if (filters.person) {
    const pattern = `%${filters.person.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`lower(${auditLog.actorName}) like ${pattern}`);
  }
  if (filters.kind === "system") conditions.push(eq(auditLog.role, "system"));
  else if (filters.kind === "event")
    conditions.push(
      sql`${auditLog.action} in ('event.create', 'event.edit', 'event.delete', 'event.door.window',
        'event.sessions', 'event.certificateShare')`,
    );
  else if (filters.kind)
    conditions.push(
      or(eq(auditLog.action, filters.kind), like(auditLog.action, `${filters.kind}.%`))!,
    );
  if (filters.item) conditions.push(eq(auditLog.itemId, filters.item));
  if (filters.from)
    conditions.push(gte(auditLog.at, zonedToInstant(filters.from, "00:00", timeZone)));
  if (filters.to) {
    const next = new Date(zonedToInstant(filters.to, "00:00", timeZone).getTime() + 86_400_000);
    conditions.push(lt(auditLog.at, next));
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** One page of the log, newest first, with the filters applied. */
export async function listAudit(
  db: Db,
  actor: Actor | null,
  filters: AuditFilters,
  page: number,
  timeZone: string,
) {
  assertMay(actor, "audit.read");
  const where = auditWhere(filters, timeZone);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(where);
  const total = count?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(Number.isFinite(page) ? page : 1)), pageCount);
  const entries = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((current - 1) * AUDIT_PAGE_SIZE);
  return { entries, total, page: current, pageCount };
}

/** The log as rows for a CSV file (header first), newest first, with the filters applied. */
export async function auditCsvRows(
  db: Db,
  actor: Actor | null,
  filters: AuditFilters,
  timeZone: string,
): Promise<string[][]> {
  assertMay(actor, "audit.read");
  const entries = await db
    .select()
    .from(auditLog)
    .where(auditWhere(filters, timeZone))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_CSV_MAX);
  return [
    ["Fecha", "Persona", "Rol", "Acción", "Tipo de elemento", "Elemento", "Resumen"],
    ...entries.map((e) => [
      formatSortableDateTime(e.at, timeZone),
      e.actorName,
      roleName(e.role),
      e.action,
      e.itemKind,
      e.itemId ?? "",
      e.summary,
    ]),
  ];
}

/** A role as the log shows it. */
export function roleName(role: string): string {
  if (role === "admin") return "Administración";
  if (role === "system") return "Sistema";
  return isRoleKind(role) ? ROLE_KINDS[role].label : role;
}

/**
 * Entries older than `days` go (AUDIT_RETENTION_DAYS; unset keeps them forever). Returns how many.
 */
export async function pruneAudit(db: Db, days: number | null, now: Date): Promise<number> {
  if (days === null) return 0;
  const gone = await db
    .delete(auditLog)
    .where(lt(auditLog.at, new Date(now.getTime() - days * 86_400_000)))
    .returning({ id: auditLog.id });
  return gone.length;
}
