// Reads the JSON files that the usual Firestore and Firebase Auth export tools write, whatever the
// tool, into one shape: collections of documents with plain values (typed wrappers decoded), and
// the Auth users. Which tool wrote a file is recognised from the file itself.
import fs from "node:fs/promises";
import path from "node:path";

/** A Firestore GeoPoint. No field of ours holds one: it is reported where it appears. */
export class GeoPoint {
  constructor(
    readonly latitude: number,
    readonly longitude: number,
  ) {}
}

/** A Firestore DocumentReference, kept as its path ("usuarios/abc"). */
export class DocRef {
  constructor(readonly path: string) {}
  get id(): string {
    return this.path.split("/").filter(Boolean).at(-1) ?? "";
  }
}

/**
 * Text holding a NUL character, which PostgreSQL cannot store (forms refuse it too): kept as a
 * value no field accepts, so that it is reported rather than failing the whole import.
 */
export class TextWithNul {
  constructor(readonly text: string) {}
}

export type Dialect =
  | "firestore-export-import"
  | "node-firestore-import-export"
  | "firefoo"
  | "por-coleccion"
  | "firebase-auth";

export const DIALECT_NAMES: Record<Dialect, string> = {
  "firestore-export-import": "firestore-export-import",
  "node-firestore-import-export": "node-firestore-import-export",
  firefoo: "Firefoo",
  "por-coleccion": "un archivo por colección (Admin SDK)",
  "firebase-auth": "Firebase Auth (firebase auth:export)",
};

export interface ExportDocument {
  id: string;
  /** Built without a prototype: a key such as `__proto__` can never lend a document a field. */
  fields: Record<string, unknown>;
  /** Subcollections under this document: name → number of documents. */
  subcollections: Map<string, number>;
  /** Paths of the keys that were left out because Firestore or JavaScript reserves them. */
  reservedKeys: string[];
  file: string;
}

interface AuthUser {
  localId: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoUrl: string | null;
  createdAt: Date | null;
  /** The `rawId` of the google.com provider: Google's `sub` for this person. */
  googleSubject: string | null;
}

interface ExportProblem {
  collection: string;
  documentId: string;
  field?: string;
  message: string;
  detail?: string;
}

export interface ExportData {
  collections: Map<string, Map<string, ExportDocument>>;
  authUsers: Map<string, AuthUser>;
  files: { file: string; dialect: Dialect }[];
  /** Entries that are not documents at all (an array item without an id, say). */
  problems: ExportProblem[];
}

/** A file that cannot be imported at all; the whole import stops and nothing is written. */
export class ImportFileError extends Error {
  override name = "ImportFileError";
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Firestore nests maps and arrays at most 20 levels deep; deeper input is not an export of it, and
 * decoding it by recursion would overflow the stack.
 */
export const MAX_DEPTH = 64;

class TooDeepError extends Error {}

/**
 * Keys no document may carry: Firestore reserves `__name__`-shaped ones, and `__proto__`,
 * `constructor` and `prototype` mean something to JavaScript objects.
 */
export function isReservedKey(key: string): boolean {
  return /^__.*__$/.test(key) || key === "constructor" || key === "prototype";
}

/** A key or id as the report shows it: long ones cut, so a 1 MB key is not echoed whole. */
export function shortened(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, required: string[], optional: string[] = []) {
  const keys = Object.keys(value);
  return (
    required.every((k) => k in value) &&
    keys.every((k) => required.includes(k) || optional.includes(k))
  );
}

function fromSeconds(seconds: unknown, nanos: unknown): Date {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return new Date(Number.NaN);
  const extra = typeof nanos === "number" && Number.isFinite(nanos) ? nanos / 1e6 : 0;
  return new Date(seconds * 1000 + Math.floor(extra));
}

function timestampOf(value: unknown): Date {
  if (typeof value === "string") return new Date(value);
  if (typeof value === "number") return new Date(value);
  if (isObject(value)) {
    if ("_seconds" in value) return fromSeconds(value._seconds, value._nanoseconds);
    if ("seconds" in value) return fromSeconds(value.seconds, value.nanoseconds);
  }
  return new Date(Number.NaN);
}

/**
 * Turns every tool's typed wrappers (Timestamps, GeoPoints, references) into plain values. Maps
 * come out without a prototype; reserved keys in them are left out and passed to `reserved`.
 */
function decodeValue(
  value: Json,
  reserved: (path: string) => void,
  path: string,
  depth: number,
): unknown {
  if (depth > MAX_DEPTH) throw new TooDeepError();
  if (Array.isArray(value))
    return value.map((item, index) => decodeValue(item, reserved, `${path}[${index}]`, depth + 1));
  if (typeof value === "string" && value.includes("\u0000")) return new TextWithNul(value);
  if (!isObject(value)) return value;
  // node-firestore-import-export
  if (typeof value.__datatype__ === "string" && "value" in value) {
    const inner = value.value;
    switch (value.__datatype__) {
      case "timestamp":
        return timestampOf(inner);
      case "geopoint":
        return isObject(inner)
          ? new GeoPoint(
              Number(inner._latitude ?? inner.latitude),
              Number(inner._longitude ?? inner.longitude),
            )
          : inner;
      case "documentReference":
        return typeof inner === "string" ? new DocRef(inner) : inner;
      default:
        return decodeValue(inner, reserved, path, depth + 1);
    }
  }
  // Firefoo
  if (hasOnlyKeys(value, ["__time__"])) return new Date(String(value.__time__));
  if (hasOnlyKeys(value, ["__lat__", "__lon__"]))
    return new GeoPoint(Number(value.__lat__), Number(value.__lon__));
  if (hasOnlyKeys(value, ["__ref__"]) && typeof value.__ref__ === "string")
    return new DocRef(value.__ref__);
  // firestore-export-import and the Admin SDK's own JSON form of a Timestamp
  if (hasOnlyKeys(value, ["_seconds", "_nanoseconds"]))
    return fromSeconds(value._seconds, value._nanoseconds);
  if (hasOnlyKeys(value, ["seconds", "nanoseconds"], ["type"]))
    return fromSeconds(value.seconds, value.nanoseconds);
  if (hasOnlyKeys(value, ["_latitude", "_longitude"]))
    return new GeoPoint(Number(value._latitude), Number(value._longitude));
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${shortened(key, 40)}`;
    if (isReservedKey(key)) reserved(at);
    else out[key] = decodeValue(inner, reserved, at, depth + 1);
  }
  return out;
}

function countDocs(value: Json): number {
  return isObject(value) ? Object.keys(value).length : Array.isArray(value) ? value.length : 0;
}

/** A document as a map of fields, its subcollections (under `subKey`) set apart. */
function toDocument(
  id: string,
  raw: Record<string, Json>,
  file: string,
  subKey: "subCollection" | "__collections__",
): ExportDocument {
  const fields: Record<string, unknown> = Object.create(null);
  const subcollections = new Map<string, number>();
  const reservedKeys: string[] = [];
  const reserved = (at: string) => reservedKeys.push(at);
  for (const [key, value] of Object.entries(raw)) {
    if (key === subKey && isObject(value)) {
      for (const [name, docs] of Object.entries(value)) {
        // firestore-export-import names a subcollection by its whole path ("eventos/x/comentarios").
        subcollections.set(name.split("/").at(-1) ?? name, countDocs(docs));
      }
      continue;
    }
    if (isReservedKey(key)) reserved(shortened(key, 40));
    else fields[key] = decodeValue(value, reserved, shortened(key, 40), 1);
  }
  return { id, fields, subcollections, reservedKeys, file };
}

function addCollection(
  data: ExportData,
  name: string,
  docs: Record<string, Json>,
  file: string,
  subKey: "subCollection" | "__collections__",
): void {
  let collection = data.collections.get(name);
  if (!collection) {
    collection = new Map();
    data.collections.set(name, collection);
  }
  for (const [id, raw] of Object.entries(docs)) {
    if (!isObject(raw)) {
      data.problems.push({
        collection: name,
        documentId: shortened(id),
        message: "no es un documento (se esperaba un objeto)",
      });
      continue;
    }
    if (isReservedKey(id) || id === "" || id.length > 1500) {
      data.problems.push({
        collection: name,
        documentId: shortened(id),
        message:
          "el id del documento no es válido en Firestore (vacío, reservado o de más de 1500 bytes)",
      });
      continue;
    }
    collection.set(id, toDocument(id, raw, file, subKey));
  }
}

/**
 * Firefoo's export of several collections keys each document by its path: "usuarios/<id>", and
 * "eventos/<id>/fotos/<id>" for a document of a subcollection. Top-level documents are added to
 * their collections; a subcollection's documents are counted on their parent, which reports them
 * as not imported, or reported alone when the export lacks the parent.
 */
function addDocumentsByPath(data: ExportData, docs: Record<string, Json>, file: string): void {
  const byCollection = new Map<string, Record<string, Json>>();
  const nested: { collection: string; parentId: string; name: string; path: string }[] = [];
  for (const [key, raw] of Object.entries(docs)) {
    const segments = key.split("/");
    const [collection, id] = segments;
    if (segments.length % 2 === 1 || segments.some((segment) => segment === "")) {
      data.problems.push({
        collection: shortened(collection || key),
        documentId: shortened(key),
        message: "no es la ruta de un documento (colección/id)",
      });
    } else if (segments.length === 2) {
      let collectionDocs = byCollection.get(collection!);
      if (!collectionDocs) byCollection.set(collection!, (collectionDocs = Object.create(null)));
      collectionDocs![id!] = raw;
    } else {
      nested.push({ collection: collection!, parentId: id!, name: segments.at(-2)!, path: key });
    }
  }
  for (const [name, collectionDocs] of byCollection)
    addCollection(data, name, collectionDocs, file, "__collections__");
  for (const { collection, parentId, name, path: docPath } of nested) {
    const parent = data.collections.get(collection)?.get(parentId);
    if (parent) parent.subcollections.set(name, (parent.subcollections.get(name) ?? 0) + 1);
    else
      data.problems.push({
        collection: shortened(collection),
        documentId: shortened(docPath),
        message:
          "documento de una subcolección cuyo documento padre no está en la exportación; no se importa",
      });
  }
}

function millisOrNull(value: unknown): Date | null {
  if (value === undefined || value === null || value === "") return null;
  const date = new Date(
    typeof value === "string" && /^\d+$/.test(value) ? Number(value) : String(value),
  );
  return Number.isNaN(date.getTime()) ? null : date;
}

function readAuthUsers(data: ExportData, users: Json[]): void {
  users.forEach((raw, index) => {
    if (!isObject(raw) || typeof raw.localId !== "string" || raw.localId === "") {
      data.problems.push({
        collection: "auth",
        documentId: `#${index + 1}`,
        field: "localId",
        message: "usuario de Auth sin localId",
      });
      return;
    }
    const providers = Array.isArray(raw.providerUserInfo) ? raw.providerUserInfo : [];
    const google = providers.find((p) => isObject(p) && p.providerId === "google.com");
    const rawId = isObject(google) && typeof google.rawId === "string" ? google.rawId : null;
    data.authUsers.set(raw.localId, {
      localId: raw.localId,
      email: typeof raw.email === "string" ? raw.email : null,
      emailVerified: raw.emailVerified === true,
      displayName: typeof raw.displayName === "string" ? raw.displayName : null,
      photoUrl: typeof raw.photoUrl === "string" ? raw.photoUrl : null,
      createdAt: millisOrNull(raw.createdAt),
      googleSubject: rawId,
    });
  });
}

const ID_KEYS = ["id", "_id", "firestore_id"] as const;

function detect(root: Json): Dialect | null {
  if (Array.isArray(root)) return "por-coleccion";
  if (!isObject(root)) return null;
  if (Array.isArray(root.users) && root.users.some((u) => isObject(u) && "localId" in u))
    return "firebase-auth";
  if (isObject(root.meta) && root.meta.app === "firefoo" && isObject(root.data)) return "firefoo";
  if (isObject(root.__collections__)) return "node-firestore-import-export";
  const values = Object.values(root);
  if (values.length > 0 && values.every((c) => isObject(c) && Object.values(c).every(isObject)))
    return "firestore-export-import";
  return null;
}

/** Where a V8 JSON.parse error happened, as "línea L, columna C", when it says. */
function positionOf(error: unknown, text: string): string {
  const match = /position (\d+)/.exec(String((error as Error)?.message ?? ""));
  if (!match) return "";
  const before = text.slice(0, Number(match[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return ` (línea ${line}, columna ${column})`;
}

async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT"
        ? "el archivo no existe"
        : code === "EACCES" || code === "EPERM"
          ? "no hay permiso para leer el archivo"
          : code === "EISDIR"
            ? "es una carpeta, no un archivo"
            : `no se pudo leer el archivo (${code ?? "error desconocido"})`;
    throw new ImportFileError(file, problem);
  }
}

export function emptyExport(): ExportData {
  return { collections: new Map(), authUsers: new Map(), files: [], problems: [] };
}

/** Adds one file's content to `data`. `file` names it in messages; its base name may be the collection. */
export function readExportText(data: ExportData, file: string, text: string): Dialect {
  let root: Json;
  try {
    root = JSON.parse(text.replace(/^\uFEFF/, "")) as Json;
  } catch (error) {
    throw new ImportFileError(file, `no es JSON válido${positionOf(error, text)}`);
  }
  const dialect = detect(root);
  if (!dialect) {
    throw new ImportFileError(
      file,
      "no se reconoce el formato (se esperaba una exportación de Firestore o de Firebase Auth)",
    );
  }
  try {
    readRoot(data, file, root, dialect);
  } catch (error) {
    if (!(error instanceof TooDeepError)) throw error;
    throw new ImportFileError(
      file,
      `tiene mapas o listas anidados a más de ${MAX_DEPTH} niveles (Firestore admite 20); no es una exportación que se pueda importar`,
    );
  }
  data.files.push({ file, dialect });
  return dialect;
}

function readRoot(data: ExportData, file: string, root: Json, dialect: Dialect): void {
  const baseName = path.basename(file).replace(/\.json$/i, "");
  switch (dialect) {
    case "firebase-auth":
      readAuthUsers(data, (root as { users: Json[] }).users);
      break;
    case "firestore-export-import":
      for (const [name, docs] of Object.entries(root as Record<string, Record<string, Json>>))
        addCollection(data, name, docs, file, "subCollection");
      break;
    case "node-firestore-import-export":
      for (const [name, docs] of Object.entries(
        (root as { __collections__: Record<string, Json> }).__collections__,
      )) {
        if (isObject(docs)) addCollection(data, name, docs, file, "__collections__");
      }
      break;
    case "firefoo": {
      const { meta, data: docs } = root as {
        meta: Record<string, Json>;
        data: Record<string, Json>;
      };
      const resourcePath = Array.isArray(meta.resourcePath) ? meta.resourcePath.map(String) : [];
      if (Object.keys(docs).some((key) => key.includes("/"))) {
        addDocumentsByPath(data, docs, file);
      } else if (resourcePath.length % 2 === 1) {
        // One collection (or a subcollection: then only its last name counts).
        addCollection(data, resourcePath.at(-1)!, docs, file, "__collections__");
      } else {
        // The whole database: collections at the top, documents under them.
        for (const [name, inner] of Object.entries(docs)) {
          if (isObject(inner)) addCollection(data, name, inner, file, "__collections__");
        }
      }
      break;
    }
    case "por-coleccion": {
      const docs: Record<string, Json> = Object.create(null);
      (root as Json[]).forEach((item, index) => {
        const key = isObject(item)
          ? ID_KEYS.find((k) => typeof item[k] === "string" && item[k] !== "")
          : undefined;
        if (!isObject(item) || !key) {
          data.problems.push({
            collection: baseName,
            documentId: `#${index + 1}`,
            field: "id",
            message: "documento sin id (se busca en id, _id o firestore_id)",
          });
          return;
        }
        const { [key]: id, ...rest } = item;
        docs[String(id)] = rest;
      });
      addCollection(data, baseName, docs, file, "__collections__");
      break;
    }
  }
}

/** The files hold no collection of the community's and no Auth account: nothing to import. */
export class NothingToImportError extends Error {
  override name = "NothingToImportError";
}

/** The collections of the community's site that the import maps. */
export const KNOWN_COLLECTIONS = [
  "usuarios",
  "eventos",
  "participations",
  "notas",
  "recursos",
  "proyectos",
] as const;

/**
 * Reads every file; the first unreadable or invalid one stops everything, and so do files that
 * hold none of the community's collections (an export of another project, say).
 */
export async function readExportFiles(files: readonly string[]): Promise<ExportData> {
  const data = emptyExport();
  for (const file of files) readExportText(data, file, await readText(file));
  const known = KNOWN_COLLECTIONS.some((name) => data.collections.has(name));
  if (!known && data.authUsers.size === 0) {
    const found = [...data.collections.keys()].slice(0, 5).map((name) => shortened(name, 40));
    throw new NothingToImportError(
      `no se reconoce ninguna colección de la comunidad en ${files.join(", ")} ` +
        `(se esperaba alguna de ${KNOWN_COLLECTIONS.join(", ")}, o usuarios de Firebase Auth` +
        (found.length > 0 ? `; se encontró: ${found.join(", ")}` : "") +
        ")",
    );
  }
  return data;
}
