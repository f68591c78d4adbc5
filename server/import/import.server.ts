// npm run import: the community's Firebase data → Ayllu, in one transaction. Re-running it with the
// same files changes nothing; a newer export updates what changed (rows are matched by Firebase id).
import { giveEventsTheirSessions } from "~/events/event-sessions.server";
import { recordAudit, type AuditActor } from "~/audit/audit.server";
import { eq, getTableColumns, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import {
  defaultEndsAt,
  EventDateOutOfRangeError,
  eventStartsAt,
} from "~/events/event-commands.server";
import type { Db, Tx } from "~/db/client.server";
import { notifyPublicationChange, type PublicationKind } from "~/db/notify.server";
import { rowsOf } from "~/db/rows.server";
import {
  eventImages,
  events,
  notes,
  participations,
  projects,
  resources,
  users,
} from "~/db/schema.server";
import { IMPORTED_ISSUER } from "~/members/account-link.server";
import {
  PUBLICATION_COLLECTIONS,
  mapPublications,
  mapEvent,
  mapMember,
  reportLeftOut,
  uidOf,
  valueDetail,
  type PublicationCollection,
  type Issue,
  type Reporter,
} from "./map-documents.server";
import {
  KNOWN_COLLECTIONS,
  shortened,
  type Dialect,
  type ExportData,
  type ExportDocument,
} from "./read-export.server";

interface CollectionCounts {
  found: number;
  imported: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

interface ReportIssue extends Issue {
  /** True when the whole document (or list entry) was left out; false for a field. */
  skipped: boolean;
}

export interface ImportReport {
  dryRun: boolean;
  files: { file: string; dialect: Dialect }[];
  collections: Map<string, CollectionCounts>;
  /** Events written with the default end (start + 2 h): the export has no end (decision 030). */
  defaultEnds: number;
  issues: ReportIssue[];
}

export interface ImportProgress {
  collection: string;
  done: number;
  total: number;
}

interface ImportOptions {
  timeZone: string;
  dryRun?: boolean;
  /** Who ran it (--como EMAIL), for the audit log; the system when not said. */
  by?: AuditActor & { isAdmin?: boolean };
  now?: Date;
  onProgress?: (progress: ImportProgress) => void;
}

/** The database refused part of the import: everything was rolled back. */
export class ImportDatabaseError extends Error {
  override name = "ImportDatabaseError";
}

/** The import would take away the last admin's flag: refused whole, nothing written. */
export class ImportWouldRemoveAdminsError extends Error {
  override name = "ImportWouldRemoveAdminsError";
}

class DryRunRollback extends Error {}

const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * ON CONFLICT … DO UPDATE SET each column of `modes` ("set": the incoming value; "fill": the
 * incoming value only where the column is empty), only where that changes something: an unchanged
 * row is not written (and not returned), so a second import changes nothing.
 */
function upsertSet(table: PgTable, modes: Partial<Record<string, Mode>>, extraWhere?: SQL) {
  const columns = getTableColumns(table) as Record<string, { name: string; dataType: string }>;
  const tableName = (table as unknown as { [k: symbol]: string })[Symbol.for("drizzle:Name")];
  const set: Record<string, SQL> = {};
  const current: SQL[] = [];
  const incoming: SQL[] = [];
  for (const [key, mode] of Object.entries(modes)) {
    const column = columns[key]!;
    const now = `"${tableName}"."${column.name}"`;
    const value = `excluded."${column.name}"`;
    const next =
      mode === "set"
        ? value
        : column.dataType === "boolean"
          ? `(${now} or ${value})`
          : column.dataType === "string"
            ? `coalesce(nullif(${now}, ''), ${value})`
            : `coalesce(${now}, ${value})`;
    set[key] = sql.raw(next);
    current.push(sql.raw(now));
    incoming.push(sql.raw(next));
  }
  if (current.length === 0) return { set, setWhere: extraWhere };
  const changed = sql`(${sql.join(current, sql`, `)}) is distinct from (${sql.join(incoming, sql`, `)})`;
  return { set, setWhere: extraWhere ? sql`${extraWhere} and ${changed}` : changed };
}

/** Every one of `keys` written from the file. */
const setting = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, "set" as const]));

function counts(report: ImportReport, collection: string): CollectionCounts {
  let found = report.collections.get(collection);
  if (!found) {
    found = { found: 0, imported: 0, updated: 0, unchanged: 0, skipped: 0 };
    report.collections.set(collection, found);
  }
  return found;
}

function errorText(error: unknown): string {
  // Drizzle wraps the driver's error ("Failed query: …") and keeps the database's words in `cause`.
  const cause = (error as { cause?: unknown })?.cause;
  const source = cause instanceof Error ? cause : error;
  return source instanceof Error ? source.message : String(source);
}

/** A report line; ids, field names and values from the files are cut short (a key may be 1 MB). */
function issue(
  collection: string,
  documentId: string,
  field: string | undefined,
  message: string,
  detail: string | undefined,
  skipped: boolean,
): ReportIssue {
  return {
    collection,
    documentId: shortened(documentId),
    field: field === undefined ? undefined : shortened(field),
    message,
    detail: detail === undefined ? undefined : shortened(detail, 300),
    skipped,
  };
}

/** Imports `data` into `db`. With `dryRun` everything runs and is then rolled back. */
export async function importFirebase(
  db: Db,
  data: ExportData,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    dryRun: Boolean(options.dryRun),
    files: data.files,
    collections: new Map(),
    defaultEnds: 0,
    issues: [],
  };
  const now = options.now ?? new Date();
  const progress = options.onProgress ?? (() => {});
  const reporter =
    (collection: string, documentId: string): Reporter =>
    (field, message, detail) =>
      report.issues.push(issue(collection, documentId, field, message, detail, false));
  const skip: Skip = (collection, documentId, message, field, detail) => {
    report.issues.push(issue(collection, documentId, field, message, detail, true));
    counts(report, collection).skipped++;
  };

  for (const name of KNOWN_COLLECTIONS) if (data.collections.has(name)) counts(report, name);
  for (const problem of data.problems) {
    counts(report, problem.collection).found++;
    skip(problem.collection, problem.documentId, problem.message, problem.field, problem.detail);
  }

  try {
    await db.transaction(async (tx) => {
      const adminsBefore = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.isAdmin, true))
        .orderBy(users.email);
      const uidToId = await importMembers(
        tx,
        data,
        options.timeZone,
        now,
        report,
        reporter,
        skip,
        progress,
      );
      // A first import into a fresh site may bring no admin (ADMIN_EMAILS names them later);
      // an import into a site that has admins never leaves it without one.
      if (adminsBefore.length > 0 && (await tx.$count(users, eq(users.isAdmin, true))) === 0) {
        const named = adminsBefore.slice(0, 5).map((admin) => admin.email);
        throw new ImportWouldRemoveAdminsError(
          `La importación dejaría el sitio sin administradores: los archivos quitan isAdmin a ${named.join(", ")}` +
            (adminsBefore.length > named.length
              ? ` y ${adminsBefore.length - named.length} más`
              : "") +
            ". No se importó nada. Corrige isAdmin en usuarios o da administración a alguien antes (npm run admin).",
        );
      }
      await importEvents(
        tx,
        data,
        options.timeZone,
        now,
        uidToId,
        report,
        reporter,
        skip,
        progress,
      );
      // Every event has its sessions (decision 043).
      await giveEventsTheirSessions(tx, options.timeZone);
      await importParticipations(tx, data, now, uidToId, report, reporter, skip, progress);
      for (const collection of PUBLICATION_COLLECTIONS) {
        await importPublications(
          tx,
          collection,
          data,
          now,
          uidToId,
          report,
          reporter,
          skip,
          progress,
        );
      }
      for (const [name, docs] of data.collections) {
        if ((KNOWN_COLLECTIONS as readonly string[]).includes(name)) continue;
        const c = counts(report, name);
        c.found += docs.size;
        c.skipped += docs.size;
        report.issues.push({
          collection: name,
          documentId: "*",
          message: "colección desconocida; no se importa",
          detail: `${docs.size} documento(s)`,
          skipped: true,
        });
      }
      if (options.dryRun) throw new DryRunRollback();
      const by = options.by ?? { system: "Importación" };
      await recordAudit(tx, {
        actor: by,
        role: "system" in by ? "system" : "admin",
        action: "import",
        itemKind: "site",
        summary: `Importó ${data.files.length} ${data.files.length === 1 ? "archivo" : "archivos"} de Firebase`,
      });
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return report;
    if (error instanceof ImportWouldRemoveAdminsError) throw error;
    throw new ImportDatabaseError(
      `La base de datos rechazó la importación: ${errorText(error)}. No se guardó nada.`,
    );
  }
  return report;
}

type Skip = (
  collection: string,
  documentId: string,
  message: string,
  field?: string,
  detail?: string,
) => void;
type ReporterFor = (collection: string, documentId: string) => Reporter;
type Progress = (progress: ImportProgress) => void;

/**
 * How an import may change a column of a row that exists: "set" writes the file's value (the file
 * holds it); "fill" writes it only where the column is still empty. Columns not named are kept.
 */
type Mode = "set" | "fill";

type MemberKey = Exclude<keyof typeof users.$inferInsert, "id">;

async function importMembers(
  tx: Tx,
  data: ExportData,
  timeZone: string,
  now: Date,
  report: ImportReport,
  reporter: ReporterFor,
  skip: Skip,
  progress: Progress,
): Promise<Map<string, string>> {
  const profiles = data.collections.get("usuarios") ?? new Map<string, ExportDocument>();
  const uids = [...new Set([...profiles.keys(), ...data.authUsers.keys()])];
  if (uids.length === 0) return new Map();
  const c = counts(report, "usuarios");
  c.found += uids.length;

  const existing = new Map<string, { issuer: string; googleSubject: string | null }>();
  const subjectOwner = new Map<string, string>();
  for (const row of await tx
    .select({
      uid: users.firebaseUid,
      issuer: users.issuer,
      googleSubject: users.firebaseGoogleSubject,
    })
    .from(users)
    .where(isNotNull(users.firebaseUid))) {
    existing.set(row.uid!, { issuer: row.issuer, googleSubject: row.googleSubject });
    if (row.googleSubject) subjectOwner.set(row.googleSubject, row.uid!);
  }

  const rows: { values: typeof users.$inferInsert; modes: Partial<Record<MemberKey, Mode>> }[] = [];
  for (const uid of uids) {
    const doc = profiles.get(uid);
    const auth = data.authUsers.get(uid);
    const known = existing.get(uid);
    const report_ = reporter("usuarios", uid);
    if (doc) reportLeftOut(doc, report_);
    const values = mapMember(doc?.fields ?? Object.create(null), timeZone, report_);
    if (!doc) {
      report_(
        undefined,
        known
          ? "cuenta de Firebase Auth sin documento en usuarios: solo se completan los datos de la cuenta que faltan; el perfil no cambia"
          : "cuenta de Firebase Auth sin documento en usuarios: se crea el miembro sin datos de perfil",
      );
    }
    if (doc && !auth && data.authUsers.size > 0) {
      report_(
        undefined,
        "sin cuenta en la exportación de Firebase Auth: se vinculará solo por correo verificado",
      );
    }
    const email = auth?.email?.trim() || values.email;
    if (!email) {
      skip(
        "usuarios",
        uid,
        "no tiene correo electrónico (ni en usuarios ni en Firebase Auth)",
        "email",
      );
      continue;
    }
    if (known && known.issuer !== IMPORTED_ISSUER) {
      skip("usuarios", uid, "ya inició sesión en Ayllu: su perfil no se sobrescribe");
      continue;
    }
    let googleSubject = auth?.googleSubject ?? null;
    if (
      googleSubject &&
      subjectOwner.has(googleSubject) &&
      subjectOwner.get(googleSubject) !== uid
    ) {
      report_(
        "providerUserInfo",
        "la misma cuenta de Google ya pertenece a otro miembro; este se vinculará solo por correo",
        `miembro ${subjectOwner.get(googleSubject)}`,
      );
      googleSubject = null;
    }
    if (googleSubject) subjectOwner.set(googleSubject, uid);

    // What the files hold, column by column. A usuarios document speaks for the profile; an Auth
    // record beside it for the account. An Auth record alone only fills what is still empty.
    const modes: Partial<Record<MemberKey, Mode>> = {};
    const authMode: Mode = doc ? "set" : "fill";
    for (const key of [
      "displayName",
      "photoURL",
      "isAdmin",
      "nombreCompleto",
      "fechaNacimiento",
      "pais",
      "ciudad",
      "genero",
      "habilidades",
      "createdAt",
      "updatedAt",
    ] as const) {
      if (values.given.has(key)) modes[key] = "set";
    }
    if (doc) modes.email = "set";
    if (auth) {
      modes.emailVerified = authMode;
      if (googleSubject) modes.firebaseGoogleSubject = authMode;
    }
    let displayName = values.displayName;
    if (!values.given.has("displayName") && auth?.displayName?.trim()) {
      displayName = auth.displayName.trim().slice(0, 200);
      modes.displayName = "fill";
    }
    let photoURL = values.photoURL;
    if (!values.given.has("photoURL") && auth?.photoUrl && /^https?:\/\//i.test(auth.photoUrl)) {
      photoURL = auth.photoUrl;
      modes.photoURL = "fill";
    }
    let createdAt = values.given.has("createdAt") ? values.createdAt : null;
    if (!createdAt && doc && auth?.createdAt) {
      createdAt = auth.createdAt;
      modes.createdAt = "set";
    }
    if (!createdAt && !known) {
      createdAt = auth?.createdAt ?? null;
      if (!createdAt) report_("createdAt", "falta; se usa la hora de la importación");
    }
    rows.push({
      modes,
      values: {
        issuer: IMPORTED_ISSUER,
        subject: uid,
        firebaseUid: uid,
        firebaseGoogleSubject: googleSubject,
        email,
        emailVerified: auth?.emailVerified ?? false,
        displayName,
        photoURL,
        isAdmin: values.isAdmin,
        nombreCompleto: values.nombreCompleto,
        fechaNacimiento: values.fechaNacimiento,
        pais: values.pais,
        ciudad: values.ciudad,
        genero: values.genero,
        habilidades: values.habilidades,
        createdAt: createdAt ?? now,
        updatedAt: values.updatedAt,
      },
    });
  }

  // Rows that change the same columns in the same way are written together.
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const signature = JSON.stringify(Object.entries(row.modes).sort());
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = []));
    group.push(row);
  }
  let done = 0;
  for (const group of groups.values()) {
    const { set, setWhere } = upsertSet(
      users,
      group[0]!.modes,
      sql`${users.issuer} = ${IMPORTED_ISSUER}`,
    );
    for (const part of chunks(group)) {
      const insert = tx.insert(users).values(part.map((row) => row.values));
      const written = await (
        Object.keys(set).length > 0
          ? insert.onConflictDoUpdate({ target: users.firebaseUid, set, setWhere })
          : insert.onConflictDoNothing({ target: users.firebaseUid })
      ).returning({ uid: users.firebaseUid });
      for (const row of written) {
        if (existing.has(row.uid!)) c.updated++;
        else c.imported++;
      }
      c.unchanged += part.length - written.length;
      done += part.length;
      progress({ collection: "usuarios", done, total: rows.length });
    }
  }

  // Two members with one e-mail can only ever re-link by their Google account.
  const duplicates = await tx.execute(sql`
    select lower(trim(${users.email})) as email, array_agg(${users.firebaseUid} order by ${users.firebaseUid}) as uids
    from ${users} where ${users.firebaseUid} is not null
    group by 1 having count(*) > 1`);
  for (const row of rowsOf<{ email: string; uids: string[] }>(duplicates)) {
    for (const uid of row.uids) {
      report.issues.push({
        collection: "usuarios",
        documentId: uid,
        field: "email",
        message:
          "comparte su correo con otro miembro: solo se vinculará por su cuenta de Google, nunca por correo",
        detail: `${row.email}, también ${row.uids.filter((u) => u !== uid).join(", ")}`,
        skipped: false,
      });
    }
  }

  const uidToId = new Map<string, string>();
  for (const row of await tx
    .select({ id: users.id, uid: users.firebaseUid })
    .from(users)
    .where(isNotNull(users.firebaseUid))) {
    uidToId.set(row.uid!, row.id);
  }
  return uidToId;
}

async function memberNames(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const part of chunks([...new Set(ids)])) {
    for (const row of await tx
      .select({
        id: users.id,
        displayName: users.displayName,
        nombreCompleto: users.nombreCompleto,
        email: users.email,
      })
      .from(users)
      .where(inArray(users.id, part))) {
      names.set(row.id, row.displayName?.trim() || row.nombreCompleto?.trim() || row.email);
    }
  }
  return names;
}

async function importEvents(
  tx: Tx,
  data: ExportData,
  timeZone: string,
  now: Date,
  uidToId: Map<string, string>,
  report: ImportReport,
  reporter: ReporterFor,
  skip: Skip,
  progress: Progress,
): Promise<void> {
  const docs = data.collections.get("eventos");
  if (!docs) return;
  const c = counts(report, "eventos");
  c.found += docs.size;
  const mapped: { id: string; row: typeof events.$inferInsert; gallery: string[] }[] = [];
  for (const doc of docs.values()) {
    const report_ = reporter("eventos", doc.id);
    reportLeftOut(doc, report_);
    const result = mapEvent(doc.fields, timeZone, now, report_);
    if (!result.ok) {
      skip(
        "eventos",
        doc.id,
        `no se importa: ${result.reasons.join("; ")}`,
        undefined,
        result.details.join("; ") || undefined,
      );
      continue;
    }
    const e = result.value;
    let startsAt: Date;
    try {
      startsAt = eventStartsAt(e.input.fechaEvento, e.input.horaEvento, timeZone);
    } catch (error) {
      if (!(error instanceof EventDateOutOfRangeError)) throw error;
      skip("eventos", doc.id, `no se importa: fechaEvento: ${error.message}`);
      continue;
    }
    const publishedBy = e.publishedByUid ? (uidToId.get(e.publishedByUid) ?? null) : null;
    if (e.publishedByUid && !publishedBy) {
      report_(
        "publishedBy",
        "no hay miembro con ese uid; se guarda solo el nombre",
        `uid ${e.publishedByUid}`,
      );
    }
    mapped.push({
      id: doc.id,
      gallery: e.gallery,
      row: {
        firebaseId: doc.id,
        nombreEvento: e.input.nombreEvento,
        ubicacionEvento: e.input.ubicacionEvento,
        tipoEvento: e.input.tipoEvento,
        enlacesVirtuales: e.input.enlacesVirtuales,
        fechaEvento: e.input.fechaEvento,
        horaEvento: e.input.horaEvento,
        startsAt,
        // The specification's events have no end: each gets the default.
        endsAt: defaultEndsAt(startsAt),
        imagenEnlace: e.input.imagenEnlace,
        ubicacionEspecifica: e.input.ubicacionEspecifica || null,
        descripcion: e.input.descripcion,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
        publishedBy,
        publishedByName: e.publishedByName ?? "",
      },
    });
  }
  const names = await memberNames(
    tx,
    mapped.map((m) => m.row.publishedBy).filter((v): v is string => Boolean(v)),
  );
  for (const m of mapped) {
    if (!m.row.publishedByName)
      m.row.publishedByName = (m.row.publishedBy && names.get(m.row.publishedBy)) || "Admin";
  }

  const existing = new Map<string, { id: string; gallery: string[]; startsAt: number }>();
  const galleryRows = await tx.execute(sql`
    select e.firebase_id, e.id, e.starts_at,
      array_remove(array_agg(i.url order by i.position, i.created_at), null) as urls
    from ${events} e left join ${eventImages} i on i.event_id = e.id
    where e.firebase_id is not null group by e.id`);
  for (const row of rowsOf<{
    firebase_id: string;
    id: string;
    starts_at: string | Date;
    urls: string[] | null;
  }>(galleryRows))
    existing.set(row.firebase_id, {
      id: row.id,
      gallery: row.urls ?? [],
      startsAt: new Date(row.starts_at).getTime(),
    });

  const keys = [
    "nombreEvento",
    "ubicacionEvento",
    "tipoEvento",
    "enlacesVirtuales",
    "fechaEvento",
    "horaEvento",
    "startsAt",
    "imagenEnlace",
    "ubicacionEspecifica",
    "descripcion",
    "createdAt",
    "updatedAt",
    "publishedBy",
    "publishedByName",
  ];
  const { set, setWhere } = upsertSet(events, setting(keys));
  // An end an admin set here stays while the start does; a start moved gets the default again.
  set.endsAt = sql.raw(
    `case when "events"."starts_at" = excluded."starts_at" then "events"."ends_at" else excluded."ends_at" end`,
  );
  let done = 0;
  for (const part of chunks(mapped)) {
    const written = await tx
      .insert(events)
      .values(part.map((m) => m.row))
      .onConflictDoUpdate({ target: events.firebaseId, set, setWhere })
      .returning({ id: events.id, firebaseId: events.firebaseId });
    const writtenIds = new Map(written.map((w) => [w.firebaseId!, w.id]));
    const images: (typeof eventImages.$inferInsert)[] = [];
    const replaced: string[] = [];
    for (const m of part) {
      const before = existing.get(m.id);
      const galleryChanged = !before || before.gallery.join("\n") !== m.gallery.join("\n");
      const eventId = writtenIds.get(m.id) ?? before?.id;
      if (!eventId) continue;
      // A new event, or one whose start moved, got the default end.
      if (writtenIds.has(m.id) && (!before || before.startsAt !== m.row.startsAt.getTime()))
        report.defaultEnds++;
      if (!before) c.imported++;
      else if (writtenIds.has(m.id) || galleryChanged) c.updated++;
      else c.unchanged++;
      if (galleryChanged) {
        if (before) replaced.push(eventId);
        m.gallery.forEach((url, position) => images.push({ eventId, url, position }));
      }
    }
    for (const ids of chunks(replaced))
      await tx.delete(eventImages).where(inArray(eventImages.eventId, ids));
    for (const rows of chunks(images, 1000)) await tx.insert(eventImages).values(rows);
    done += part.length;
    progress({ collection: "eventos", done, total: mapped.length });
  }
}

async function importParticipations(
  tx: Tx,
  data: ExportData,
  now: Date,
  uidToId: Map<string, string>,
  report: ImportReport,
  reporter: ReporterFor,
  skip: Skip,
  progress: Progress,
): Promise<void> {
  const docs = data.collections.get("participations");
  if (!docs) return;
  const c = counts(report, "participations");
  const eventIds = new Map<string, string>();
  for (const row of await tx
    .select({ id: events.id, firebaseId: events.firebaseId })
    .from(events)
    .where(isNotNull(events.firebaseId))) {
    eventIds.set(row.firebaseId!, row.id);
  }
  const pairs = new Map<string, { userId: string; eventId: string; joinedAt: Date }>();
  for (const doc of docs.values()) {
    const report_ = reporter("participations", doc.id);
    reportLeftOut(doc, report_);
    for (const key of Object.keys(doc.fields))
      if (key !== "events") report_(key, "campo desconocido; no se guarda");
    const list = doc.fields.events;
    const items = Array.isArray(list) ? list : [];
    c.found += Math.max(items.length, 1);
    const userId = uidToId.get(doc.id);
    if (!Array.isArray(list)) {
      skip(
        "participations",
        doc.id,
        "events debe ser una lista de ids de eventos",
        "events",
        valueDetail(list),
      );
      continue;
    }
    if (list.length === 0) c.found--;
    if (!userId) {
      c.skipped += list.length - 1;
      skip(
        "participations",
        doc.id,
        "no hay miembro con ese uid: se omiten sus participaciones",
        undefined,
        `${list.length} participación(es)`,
      );
      continue;
    }
    list.forEach((item, index) => {
      const firebaseId = uidOf(item);
      const eventId = firebaseId ? eventIds.get(firebaseId) : undefined;
      if (!eventId) {
        skip(
          "participations",
          doc.id,
          firebaseId ? "el evento no existe (o no se importó)" : "no es un id de evento",
          `events[${index}]`,
          firebaseId ? `evento ${firebaseId}` : valueDetail(item),
        );
        return;
      }
      const key = `${userId}:${eventId}`;
      if (pairs.has(key)) c.found--;
      else pairs.set(key, { userId, eventId, joinedAt: now });
    });
  }
  const rows = [...pairs.values()];
  let done = 0;
  for (const part of chunks(rows, 1000)) {
    const written = await tx
      .insert(participations)
      .values(part)
      .onConflictDoNothing()
      .returning({ userId: participations.userId });
    c.imported += written.length;
    c.unchanged += part.length - written.length;
    done += part.length;
    progress({ collection: "participations", done, total: rows.length });
  }
}

const PUBLICATION_TABLES = {
  notas: { table: notes, kind: "note" },
  recursos: { table: resources, kind: "resource" },
  proyectos: { table: projects, kind: "project" },
} as const satisfies Record<PublicationCollection, { table: PgTable; kind: PublicationKind }>;

async function importPublications(
  tx: Tx,
  collection: PublicationCollection,
  data: ExportData,
  now: Date,
  uidToId: Map<string, string>,
  report: ImportReport,
  reporter: ReporterFor,
  skip: Skip,
  progress: Progress,
): Promise<void> {
  const docs = data.collections.get(collection);
  if (!docs) return;
  const { table, kind } = PUBLICATION_TABLES[collection];
  const c = counts(report, collection);
  c.found += docs.size;
  const rows: Record<string, unknown>[] = [];
  for (const doc of docs.values()) {
    const report_ = reporter(collection, doc.id);
    reportLeftOut(doc, report_);
    const result = mapPublications(collection, doc.fields, now, report_);
    if (!result.ok) {
      skip(
        collection,
        doc.id,
        `no se importa: ${result.reasons.join("; ")}`,
        undefined,
        result.details.join("; ") || undefined,
      );
      continue;
    }
    const v = result.value;
    const publisher = v.publisherUid ? (uidToId.get(v.publisherUid) ?? null) : null;
    if (v.publisherUid && !publisher) {
      report_(
        "publisher",
        "no hay miembro con ese uid; se guarda solo el nombre",
        `uid ${v.publisherUid}`,
      );
    }
    rows.push({
      ...v.input,
      firebaseId: doc.id,
      createdAt: v.createdAt,
      ...(collection === "notas" ? {} : { updatedAt: v.updatedAt }),
      publisher,
      publisherName: v.publisherName ?? "",
    });
  }
  const names = await memberNames(
    tx,
    rows.map((r) => r.publisher).filter((v): v is string => typeof v === "string"),
  );
  for (const row of rows) {
    if (!row.publisherName)
      row.publisherName =
        (typeof row.publisher === "string" && names.get(row.publisher)) || "Admin";
  }
  const existing = new Set(
    rowsOf<{ firebase_id: string }>(
      await tx.execute(sql`select firebase_id from ${table} where firebase_id is not null`),
    ).map((r) => r.firebase_id),
  );
  const keys = Object.keys(rows[0] ?? {}).filter((k) => k !== "firebaseId");
  let done = 0;
  let changedId: string | null = null;
  for (const part of chunks(rows)) {
    const { set, setWhere } = upsertSet(table, setting(keys));
    const firebaseIdColumn = (getTableColumns(table) as Record<string, unknown>)
      .firebaseId as typeof notes.firebaseId;
    const written = (await tx
      .insert(table)
      .values(part as never)
      .onConflictDoUpdate({ target: firebaseIdColumn, set, setWhere })
      .returning({ id: sql<string>`id`, firebaseId: sql<string>`firebase_id` })) as {
      id: string;
      firebaseId: string;
    }[];
    for (const row of written) {
      changedId ??= row.id;
      if (existing.has(row.firebaseId)) c.updated++;
      else c.imported++;
    }
    c.unchanged += part.length - written.length;
    done += part.length;
    progress({ collection, done, total: rows.length });
  }
  // Running servers on this database refresh their live lists once the import commits.
  if (changedId)
    await notifyPublicationChange(tx as unknown as Db, { kind, action: "updated", id: changedId });
}
