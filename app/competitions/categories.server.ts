// A competition's categories (docs/decisions/051-competitions-and-categories.md): admins and the
// event's organisers add, change, reorder and delete them; every change is refused here unless
// the permissions module allows it, is checked whole before anything is written, locks the event
// so that two editors go one after the other, and is written to the audit log with the change.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  bracketDraws,
  bracketRounds,
  competitionCategories,
  events,
  judgingRuns,
  scoreSheets,
  type CompetitionCategory,
  type User,
} from "~/db/schema.server";
import { rowsOf } from "~/db/rows.server";
import { recordAudit } from "~/audit/audit.server";
import { isRealDate, isUuid } from "~/kernel/checks";
import { EventNotFoundError, Refusal } from "~/kernel/errors";
import { formatDateTime, zonedDateTime, zonedToInstant } from "~/kernel/time";
import { assertMay, type Grant } from "~/kernel/permissions";
import { parseBs, priceFieldValue, PRICE_MAX_CENTS } from "~/payments/money";
import {
  CATEGORY_LIMITS,
  CATEGORY_MESSAGES,
  COACH_BY_DEFAULT,
  FORMATS,
  LEVELS,
  type CategoryFormValues,
  type Format,
  type Level,
  type PublicCategory,
} from "./categories";
import { publicName, TEAM_MESSAGES, type PublicTeam } from "./teams";
import { categoryHasTeams } from "./team-hooks.server";
import { fillTeamPlaces } from "./team-places.server";

type Actor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> & {
      grants?: readonly Grant[];
    })
  | null;

/** A refused change of categories; `field` is the form field to correct, when one is. */
export class CategoryError extends Refusal {
  override name = "CategoryError";
  constructor(message: string, field?: keyof CategoryFormValues, status: 400 | 404 | 409 = 400) {
    super(message, status, { field });
  }
}

/** What the category form posts, before it is checked (each field once, or null when repeated). */
export type CategoryFields = Partial<Record<keyof CategoryFormValues, unknown>>;

export type CategoryInput = Omit<
  CompetitionCategory,
  | "id"
  | "eventId"
  | "position"
  | "createdAt"
  | "updatedAt"
  | "tieRule"
  | "attempts"
  | "criteria"
  | "finalAt"
  | "finalBy"
  | "finalByName"
>;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** A whole number typed in a field, within bounds; blank is null when `optional`. */
function wholeNumber(
  value: unknown,
  min: number,
  max: number,
  field: keyof CategoryFormValues,
  message: string,
  optional: boolean,
): number | null {
  if (value !== undefined && typeof value !== "string") throw new CategoryError(message, field);
  const typed = text(value);
  if (typed === "") {
    if (optional) return null;
    throw new CategoryError(message, field);
  }
  const n = /^\d{1,9}$/.test(typed) ? Number(typed) : NaN;
  if (!(n >= min && n <= max)) throw new CategoryError(message, field);
  return n;
}

/** What a field sent twice (or as a file) is told: the message of its own mistakes. */
const FIELD_MESSAGES: Record<keyof CategoryFormValues, string> = {
  nombre: CATEGORY_MESSAGES.nameMissing,
  nivel: CATEGORY_MESSAGES.level,
  minimo: CATEGORY_MESSAGES.members,
  maximo: CATEGORY_MESSAGES.members,
  entrenador: CATEGORY_MESSAGES.coach,
  reglas: CATEGORY_MESSAGES.rulesTooLong,
  peso: CATEGORY_MESSAGES.weight,
  tamano: CATEGORY_MESSAGES.size,
  cupo: CATEGORY_MESSAGES.capacity,
  cuota: CATEGORY_MESSAGES.fee,
  fechaCierre: CATEGORY_MESSAGES.deadlineDate,
  horaCierre: CATEGORY_MESSAGES.deadlineTime,
  fechaInicio: CATEGORY_MESSAGES.startDate,
  horaInicio: CATEGORY_MESSAGES.startTime,
  formato: CATEGORY_MESSAGES.format,
};

const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59);

/** The category form checked whole, in the order the form shows its fields. */
export function parseCategory(fields: CategoryFields, timeZone: string): CategoryInput {
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && typeof value !== "string")
      throw new CategoryError(
        FIELD_MESSAGES[name as keyof CategoryFormValues] ?? CATEGORY_MESSAGES.nameMissing,
        name as keyof CategoryFormValues,
      );
  const name = text(fields.nombre).replace(/\s+/g, " ");
  if (name === "") throw new CategoryError(CATEGORY_MESSAGES.nameMissing, "nombre");
  if ([...name].length > CATEGORY_LIMITS.nameMax)
    throw new CategoryError(CATEGORY_MESSAGES.nameTooLong, "nombre");
  const level = text(fields.nivel);
  if (!Object.hasOwn(LEVELS, level)) throw new CategoryError(CATEGORY_MESSAGES.level, "nivel");
  const max = CATEGORY_LIMITS.membersMax;
  const minMembers = wholeNumber(
    fields.minimo,
    1,
    max,
    "minimo",
    CATEGORY_MESSAGES.members,
    false,
  )!;
  const maxMembers = wholeNumber(
    fields.maximo,
    1,
    max,
    "maximo",
    CATEGORY_MESSAGES.members,
    false,
  )!;
  if (minMembers > maxMembers) throw new CategoryError(CATEGORY_MESSAGES.minOverMax, "minimo");
  const coach = text(fields.entrenador);
  if (coach !== "" && coach !== "si" && coach !== "no")
    throw new CategoryError(CATEGORY_MESSAGES.coach, "entrenador");
  const coachRequired = coach === "" ? COACH_BY_DEFAULT.includes(level as Level) : coach === "si";
  const robotRules = text(fields.reglas).replace(/\r\n?/g, "\n");
  if ([...robotRules].length > CATEGORY_LIMITS.rulesMax)
    throw new CategoryError(CATEGORY_MESSAGES.rulesTooLong, "reglas");
  const maxWeightGrams = wholeNumber(
    fields.peso,
    1,
    CATEGORY_LIMITS.weightMax,
    "peso",
    CATEGORY_MESSAGES.weight,
    true,
  );
  const maxSizeCm = wholeNumber(
    fields.tamano,
    1,
    CATEGORY_LIMITS.sizeMax,
    "tamano",
    CATEGORY_MESSAGES.size,
    true,
  );
  const capacity = wholeNumber(
    fields.cupo,
    1,
    CATEGORY_LIMITS.capacityMax,
    "cupo",
    CATEGORY_MESSAGES.capacity,
    true,
  );
  const feeTyped = text(fields.cuota);
  let feeCents = 0;
  if (feeTyped !== "") {
    const parsed = parseBs(feeTyped);
    if (parsed === null) throw new CategoryError(CATEGORY_MESSAGES.fee, "cuota");
    if (parsed > PRICE_MAX_CENTS) throw new CategoryError(CATEGORY_MESSAGES.feeTooHigh, "cuota");
    feeCents = parsed;
  }
  const fecha = text(fields.fechaCierre);
  if (!isRealDate(fecha) || fecha < "2000-01-01")
    throw new CategoryError(CATEGORY_MESSAGES.deadlineDate, "fechaCierre");
  const hora = text(fields.horaCierre);
  const clock = /^(\d{2}):(\d{2})$/.exec(hora);
  if (!clock || Number(clock[1]) > 23 || Number(clock[2]) > 59)
    throw new CategoryError(CATEGORY_MESSAGES.deadlineTime, "horaCierre");
  const registrationClosesAt = zonedToInstant(fecha, hora, timeZone);
  if (!(registrationClosesAt.getTime() <= LAST_INSTANT))
    throw new CategoryError(CATEGORY_MESSAGES.deadlineDate, "fechaCierre");
  // When it starts (decision 055): robots are inspected until then. Both blank: the event's start.
  const fechaInicio = text(fields.fechaInicio);
  const horaInicio = text(fields.horaInicio);
  let startsAt: Date | null = null;
  if (fechaInicio !== "" || horaInicio !== "") {
    if (!isRealDate(fechaInicio) || fechaInicio < "2000-01-01")
      throw new CategoryError(CATEGORY_MESSAGES.startDate, "fechaInicio");
    const start = /^(\d{2}):(\d{2})$/.exec(horaInicio);
    if (!start || Number(start[1]) > 23 || Number(start[2]) > 59)
      throw new CategoryError(CATEGORY_MESSAGES.startTime, "horaInicio");
    startsAt = zonedToInstant(fechaInicio, horaInicio, timeZone);
    if (!(startsAt.getTime() <= LAST_INSTANT))
      throw new CategoryError(CATEGORY_MESSAGES.startDate, "fechaInicio");
  }
  const format = text(fields.formato);
  if (!Object.hasOwn(FORMATS, format)) throw new CategoryError(CATEGORY_MESSAGES.format, "formato");
  return {
    name,
    level,
    minMembers,
    maxMembers,
    coachRequired,
    robotRules,
    maxWeightGrams,
    maxSizeCm,
    capacity,
    feeCents,
    registrationClosesAt,
    startsAt,
    format,
  };
}

/** A category's form values, to edit it (in `timeZone`). */
export function categoryFormValues(
  category: CompetitionCategory,
  timeZone: string,
): CategoryFormValues {
  const wall = zonedDateTime(category.registrationClosesAt, timeZone);
  const start = category.startsAt ? zonedDateTime(category.startsAt, timeZone) : null;
  return {
    nombre: category.name,
    nivel: category.level,
    minimo: String(category.minMembers),
    maximo: String(category.maxMembers),
    entrenador: category.coachRequired ? "si" : "no",
    reglas: category.robotRules,
    peso: category.maxWeightGrams === null ? "" : String(category.maxWeightGrams),
    tamano: category.maxSizeCm === null ? "" : String(category.maxSizeCm),
    cupo: category.capacity === null ? "" : String(category.capacity),
    cuota: priceFieldValue(category.feeCents),
    fechaCierre: wall.date,
    horaCierre: wall.time,
    fechaInicio: start?.date ?? "",
    horaInicio: start?.time ?? "",
    formato: category.format,
  };
}

/** An event's categories, in their order (none for an id that is not a uuid). */
/**
 * One category, as the screens that name it by its address check and show it: null for an id that
 * is not one or no such category.
 */
export async function categoryById(db: Db, id: unknown) {
  if (!isUuid(id)) return null;
  const [category] = await db
    .select({
      id: competitionCategories.id,
      eventId: competitionCategories.eventId,
      name: competitionCategories.name,
      format: competitionCategories.format,
      attempts: competitionCategories.attempts,
      criteria: competitionCategories.criteria,
    })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, id));
  return category ?? null;
}

export async function listCategories(db: Db, eventId: string): Promise<CompetitionCategory[]> {
  if (!isUuid(eventId)) return [];
  return db
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, eventId))
    .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt));
}

/** A team as the event's page reads it from the database, before names are made public. */
export interface TeamOnPage {
  id: string;
  name: string;
  school: string;
  city: string;
  robot: string;
  status: string;
  members: string[] | null;
}

/**
 * An event's categories with their live teams (pending or approved, decision 052) and those
 * waiting for a place (decision 056), in the page's one query: the teams come as JSON from
 * subqueries.
 */
export async function listCategoriesWithTeams(
  db: Db,
  eventId: string,
): Promise<(CompetitionCategory & { teamsOnPage: TeamOnPage[] })[]> {
  if (!isUuid(eventId)) return [];
  const rows = await db
    .select({
      category: competitionCategories,
      teams: sql<TeamOnPage[]>`coalesce((
        select json_agg(json_build_object(
          'id', t.id, 'name', t.name, 'school', s.name, 'city', t.city, 'robot', t.robot_name,
          'status', t.status,
          'members', (select json_agg(coalesce(nullif(trim(u.nombre_completo), ''), u.display_name) order by m.joined_at, m.user_id)
                      from team_members m join users u on u.id = m.user_id where m.team_id = t.id)
        ) order by t.created_at, t.id)
        from competition_teams t join schools s on s.id = t.school_id
        where t.category_id = "competition_categories"."id" and t.status in ('waiting', 'pending', 'approved')
      ), '[]'::json)`,
    })
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, eventId))
    .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt));
  return rows.map((r) => ({
    ...r.category,
    teamsOnPage: typeof r.teams === "string" ? (JSON.parse(r.teams) as TeamOnPage[]) : r.teams,
  }));
}

/**
 * What the public sees of an event's categories: its live teams take places; their competitors
 * are named as 'Ana Q.' (decision 052: never a full name, e-mail or birth date on a public page).
 */
export function publicCategories(
  categories: readonly (CompetitionCategory & { teamsOnPage?: TeamOnPage[] })[],
  now?: Date,
): PublicCategory[] {
  const shown = (t: TeamOnPage) => ({
    id: t.id,
    name: t.name,
    school: t.school,
    city: t.city,
    robotName: t.robot,
    status: t.status as PublicTeam["status"],
    members: (t.members ?? []).map(publicName),
  });
  return categories.map((c) => {
    const teams = (c.teamsOnPage ?? []).filter((t) => t.status !== "waiting");
    const waiting = (c.teamsOnPage ?? []).filter((t) => t.status === "waiting");
    return {
      id: c.id,
      name: c.name,
      level: c.level as Level,
      minMembers: c.minMembers,
      maxMembers: c.maxMembers,
      coachRequired: c.coachRequired,
      robotRules: c.robotRules,
      maxWeightGrams: c.maxWeightGrams,
      maxSizeCm: c.maxSizeCm,
      capacity: c.capacity,
      feeCents: c.feeCents,
      registrationClosesAt: c.registrationClosesAt.toISOString(),
      format: c.format as Format,
      placesLeft: c.capacity === null ? null : Math.max(0, c.capacity - teams.length),
      teams: teams.map(shown),
      waiting: waiting.map(shown),
      closed: now !== undefined && now.getTime() >= c.registrationClosesAt.getTime(),
    };
  });
}

function allowed(actor: Actor, eventId: unknown) {
  const role = assertMay(actor, "event.competition", {
    eventId: typeof eventId === "string" ? eventId : "",
  });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  return role;
}

/** Locks the event (so two editors' changes go one after the other) and reads its categories. */
async function lockedEvent(tx: Tx, eventId: string) {
  const [event] = await tx
    .select({ id: events.id, nombreEvento: events.nombreEvento })
    .from(events)
    .where(eq(events.id, eventId))
    .for("update");
  if (!event) throw new EventNotFoundError();
  const categories = await tx
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, eventId))
    .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt));
  return { event, categories };
}

function findCategory(categories: readonly CompetitionCategory[], categoryId: unknown) {
  const found = isUuid(categoryId) ? categories.find((c) => c.id === categoryId) : undefined;
  if (!found) throw new CategoryError(CATEGORY_MESSAGES.notFound, undefined, 404);
  return found;
}

function nameTaken(categories: readonly CompetitionCategory[], name: string, without?: string) {
  const lower = name.toLowerCase();
  if (categories.some((c) => c.id !== without && c.name.toLowerCase() === lower))
    throw new CategoryError(CATEGORY_MESSAGES.nameTaken, "nombre", 409);
}

const describe = (c: CategoryInput, timeZone: string) =>
  `${LEVELS[c.level as Level]}, ${c.minMembers}–${c.maxMembers} integrantes, ${FORMATS[c.format as Format].toLowerCase()}, cierre ${formatDateTime(c.registrationClosesAt, timeZone)}`;

async function audit(
  tx: Tx,
  actor: Actor,
  role: ReturnType<typeof allowed>,
  action: string,
  eventId: string,
  summary: string,
) {
  await recordAudit(tx, {
    actor: actor!,
    role,
    action: `competition.category.${action}`,
    itemKind: "event",
    itemId: eventId,
    summary,
  });
}

/** 'Agregar categoría': a new category, last in the event's order. */
export async function addCategory(
  db: Db,
  actor: Actor,
  eventId: unknown,
  fields: CategoryFields,
  timeZone: string,
): Promise<CompetitionCategory> {
  const role = allowed(actor, eventId);
  const input = parseCategory(fields, timeZone);
  return db.transaction(async (tx) => {
    const { event, categories } = await lockedEvent(tx, eventId as string);
    if (categories.length >= CATEGORY_LIMITS.perEvent)
      throw new CategoryError(CATEGORY_MESSAGES.tooMany, undefined, 409);
    nameTaken(categories, input.name);
    const position = categories.reduce((m, c) => Math.max(m, c.position), 0) + 1;
    const [row] = await tx
      .insert(competitionCategories)
      .values({ ...input, eventId: event.id, position })
      .returning();
    await audit(
      tx,
      actor,
      role,
      "create",
      event.id,
      `Agregó la categoría «${input.name}» a «${event.nombreEvento}»: ${describe(input, timeZone)}`,
    );
    return row!;
  });
}

/** 'Guardar categoría': a category's fields changed (its place in the order stays). */
export async function updateCategory(
  db: Db,
  actor: Actor,
  eventId: unknown,
  categoryId: unknown,
  fields: CategoryFields,
  timeZone: string,
): Promise<CompetitionCategory> {
  const role = allowed(actor, eventId);
  const input = parseCategory(fields, timeZone);
  return db.transaction(async (tx) => {
    const { event, categories } = await lockedEvent(tx, eventId as string);
    const category = findCategory(categories, categoryId);
    nameTaken(categories, input.name, category.id);
    // Stored results are read by the format they were entered in (decision 057).
    if (input.format !== category.format && (await hasResults(tx, category)))
      throw new CategoryError(CATEGORY_MESSAGES.formatLocked, "formato", 409);
    const [row] = await tx
      .update(competitionCategories)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(competitionCategories.id, category.id))
      .returning();
    // More places (or none to count) go to the teams waiting, first registered first.
    await fillTeamPlaces(tx, row!, new Date());
    await audit(
      tx,
      actor,
      role,
      "edit",
      event.id,
      `Cambió la categoría «${category.name}» de «${event.nombreEvento}»${category.name === input.name ? "" : ` (ahora «${input.name}»)`}: ${describe(input, timeZone)}`,
    );
    return row!;
  });
}

/** Whether a category is final or has any result entered or a bracket drawn. */
async function hasResults(tx: Tx, category: CompetitionCategory): Promise<boolean> {
  if (category.finalAt !== null) return true;
  const result = await tx.execute(sql`select (
    exists (select 1 from ${judgingRuns} where ${judgingRuns.categoryId} = ${category.id})
    or exists (select 1 from ${bracketDraws} where ${bracketDraws.categoryId} = ${category.id})
    or exists (select 1 from ${bracketRounds} where ${bracketRounds.categoryId} = ${category.id})
    or exists (select 1 from ${scoreSheets} where ${scoreSheets.categoryId} = ${category.id})
  ) as found`);
  return rowsOf<{ found: boolean }>(result)[0]?.found === true;
}

/** 'Subir' or 'Bajar': a category swaps places with its neighbour; the order is renumbered. */
export async function moveCategory(
  db: Db,
  actor: Actor,
  eventId: unknown,
  categoryId: unknown,
  direction: unknown,
): Promise<void> {
  const role = allowed(actor, eventId);
  if (direction !== "subir" && direction !== "bajar")
    throw new CategoryError(CATEGORY_MESSAGES.move);
  await db.transaction(async (tx) => {
    const { event, categories } = await lockedEvent(tx, eventId as string);
    const category = findCategory(categories, categoryId);
    const order = [...categories];
    const from = order.indexOf(category);
    const to = direction === "subir" ? from - 1 : from + 1;
    if (to < 0 || to >= order.length) return;
    order.splice(from, 1);
    order.splice(to, 0, category);
    for (const [i, c] of order.entries())
      if (c.position !== i + 1)
        await tx
          .update(competitionCategories)
          .set({ position: i + 1 })
          .where(eq(competitionCategories.id, c.id));
    await audit(
      tx,
      actor,
      role,
      "move",
      event.id,
      `Movió la categoría «${category.name}» de «${event.nombreEvento}» al lugar ${to + 1} de ${order.length}`,
    );
  });
}

/** 'Eliminar categoría'. */
export async function deleteCategory(
  db: Db,
  actor: Actor,
  eventId: unknown,
  categoryId: unknown,
): Promise<void> {
  const role = allowed(actor, eventId);
  await db.transaction(async (tx) => {
    const { event, categories } = await lockedEvent(tx, eventId as string);
    const category = findCategory(categories, categoryId);
    // Teams reference their category without cascade (decision 052): say so before the database would.
    if (await categoryHasTeams(tx, category.id))
      throw new CategoryError(TEAM_MESSAGES.categoryHasTeams, undefined, 409);
    await tx
      .delete(competitionCategories)
      .where(
        and(eq(competitionCategories.id, category.id), eq(competitionCategories.eventId, event.id)),
      );
    await audit(
      tx,
      actor,
      role,
      "delete",
      event.id,
      `Eliminó la categoría «${category.name}» de «${event.nombreEvento}»`,
    );
  });
}
