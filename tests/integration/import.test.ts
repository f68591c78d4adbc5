import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterEach, expect, test } from "vitest";
import type { Database } from "~/db/client.server";
import {
  auditLog,
  eventImages,
  events,
  notes,
  participations,
  projects,
  resources,
  users,
} from "~/db/schema.server";
import {
  importFirebase,
  ImportDatabaseError,
  ImportWouldRemoveAdminsError,
  type ImportReport,
} from "#server/import/import.server";
import {
  emptyExport,
  ImportFileError,
  NothingToImportError,
  readExportFiles,
  readExportText,
} from "#server/import/read-export.server";
import { formatFullReport, formatReport } from "#server/import/report.server";
import { createTestDatabase } from "../helpers/database";
import { FIXTURE_FILES, fixture, snapshotTables } from "../helpers/firebase";

const TZ = "America/La_Paz";
const NOW = new Date("2026-11-01T12:00:00Z");

const open: Database[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});
async function freshDb() {
  const database = await createTestDatabase();
  open.push(database);
  return database.db;
}

async function importFixtures(db: Database["db"], options: { dryRun?: boolean } = {}) {
  return importFirebase(db, await readExportFiles(FIXTURE_FILES), {
    timeZone: TZ,
    now: NOW,
    ...options,
  });
}

function issuesOf(report: ImportReport, collection: string, documentId: string) {
  return report.issues.filter((i) => i.collection === collection && i.documentId === documentId);
}

test("every dialect is recognised by itself", async () => {
  const data = await readExportFiles(FIXTURE_FILES);
  expect(data.files.map((f) => [path.basename(f.file), f.dialect])).toEqual([
    ["users.json", "firebase-auth"],
    ["firestore-export-import.json", "firestore-export-import"],
    ["node-firestore-import-export.json", "node-firestore-import-export"],
    ["recursos-firefoo.json", "firefoo"],
    ["proyectos.json", "por-coleccion"],
  ]);
  expect([...data.collections.keys()].sort()).toEqual(
    ["eventos", "notas", "participations", "proyectos", "recursos", "usuarios"].sort(),
  );
  // Typed values are plain values afterwards, whatever the tool's wrapper.
  expect(data.collections.get("notas")!.get("n1")!.fields.createdAt).toEqual(
    new Date(1700000000_000),
  );
  expect(data.collections.get("recursos")!.get("r1")!.fields.updatedAt).toEqual(
    new Date("2023-11-06T09:30:00.250Z"),
  );
  expect(data.collections.get("proyectos")!.get("p1")!.fields.createdAt).toEqual(
    new Date(1690000000_000),
  );
  expect(data.collections.get("proyectos")!.get("p2")!.fields.updatedAt).toEqual(
    new Date(1693000000_005),
  );
  expect(data.authUsers.get("uGoogleAna")!.googleSubject).toBe("108000000000000000001");
  expect(data.authUsers.get("uPassLuis")!.googleSubject).toBeNull();
});

test("an import maps every collection, keeps what is valid and reports each refusal by collection, document and field", async () => {
  const db = await freshDb();
  const report = await importFixtures(db);
  expect(Object.fromEntries(report.collections)).toEqual({
    usuarios: { found: 7, imported: 6, updated: 0, unchanged: 0, skipped: 1 },
    eventos: { found: 4, imported: 2, updated: 0, unchanged: 0, skipped: 2 },
    participations: { found: 7, imported: 3, updated: 0, unchanged: 0, skipped: 4 },
    notas: { found: 3, imported: 2, updated: 0, unchanged: 0, skipped: 1 },
    recursos: { found: 2, imported: 1, updated: 0, unchanged: 0, skipped: 1 },
    proyectos: { found: 4, imported: 2, updated: 0, unchanged: 0, skipped: 2 },
    auth: { found: 1, imported: 0, updated: 0, unchanged: 0, skipped: 1 },
  });

  const [ana] = await db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
  expect(ana).toMatchObject({
    email: "Ana.Quispe@Example.com",
    emailVerified: true,
    isAdmin: true,
    nombreCompleto: "Ana Quispe Mamani",
    fechaNacimiento: "1992-04-15",
    genero: "Femenino",
    habilidades: "Robótica",
    firebaseGoogleSubject: "108000000000000000001",
    issuer: "urn:ayllu:firebase",
  });
  expect(ana!.createdAt.toISOString()).toBe("2023-01-01T00:00:00.123Z");

  // A number where text belongs, an unknown genero, 31-character habilidades, a javascript: photo.
  const [luis] = await db.select().from(users).where(eq(users.firebaseUid, "uPassLuis"));
  expect(luis).toMatchObject({
    nombreCompleto: null,
    fechaNacimiento: null,
    genero: null,
    habilidades: "",
    photoURL: null,
    isAdmin: false,
    pais: "Bolivia",
    ciudad: "Cochabamba",
    firebaseGoogleSubject: null,
  });
  const luisFields = issuesOf(report, "usuarios", "uPassLuis").map((i) => i.field);
  expect(luisFields).toEqual(
    expect.arrayContaining([
      "nombreCompleto",
      "genero",
      "habilidades",
      "photoURL",
      "isAdmin",
      "fechaNacimiento",
    ]),
  );
  expect(
    issuesOf(report, "usuarios", "uPassLuis").find((i) => i.field === "habilidades")!.message,
  ).toContain("como máximo 30 caracteres");
  // Created from the Auth export when the profile has no createdAt.
  expect(luis!.createdAt.toISOString()).toBe("2023-02-01T00:00:00.000Z");

  // A member without profile (Auth only) and a profile without Auth user.
  const [authOnly] = await db.select().from(users).where(eq(users.firebaseUid, "uAuthOnly"));
  expect(authOnly).toMatchObject({
    email: "solo-auth@example.com",
    nombreCompleto: null,
    displayName: "Solo Auth",
  });
  const [noAuth] = await db.select().from(users).where(eq(users.firebaseUid, "uNoAuth"));
  expect(noAuth).toMatchObject({
    email: "Sin.Auth@Example.com",
    fechaNacimiento: "1999-12-31",
    emailVerified: false,
  });
  expect(issuesOf(report, "usuarios", "uNoAuth").map((i) => i.field)).toContain("ubicacion");
  expect(issuesOf(report, "usuarios", "uNoEmail").find((i) => i.skipped)).toMatchObject({
    skipped: true,
    field: "email",
  });
  expect(issuesOf(report, "auth", "#6")[0]).toMatchObject({ skipped: true, field: "localId" });

  // Same e-mail apart from case: both reported.
  for (const uid of ["uDup1", "uDup2"]) {
    expect(issuesOf(report, "usuarios", uid).find((i) => i.field === "email")!.message).toMatch(
      /solo se vinculará por su cuenta de Google/,
    );
  }

  // Events: read in SITE_TIMEZONE, links and gallery filtered in order, hostile ones reported.
  const eventRows = await db.select().from(events).orderBy(asc(events.firebaseId));
  expect(eventRows.map((e) => e.firebaseId)).toEqual(["ev1", "ev2"]);
  const [ev1, ev2] = eventRows;
  expect(ev1!.startsAt.toISOString()).toBe("2024-05-10T22:00:00.000Z");
  expect(ev1!.publishedBy).toBe(ana!.id);
  expect(ev1!.createdAt.toISOString()).toBe("2024-03-09T16:00:00.500Z");
  const gallery = await db
    .select({ url: eventImages.url })
    .from(eventImages)
    .where(eq(eventImages.eventId, ev1!.id))
    .orderBy(asc(eventImages.position));
  expect(gallery.map((g) => g.url)).toEqual([
    "https://images.example.com/g1.jpg",
    "https://images.example.com/g2.jpg",
  ]);
  expect(issuesOf(report, "eventos", "ev1").map((i) => i.field)).toEqual(
    expect.arrayContaining(["galleryImages[1]", "comentarios"]),
  );
  expect(ev2!.enlacesVirtuales).toEqual(["https://meet.example.com/ros"]);
  expect(ev2!.publishedBy).toBeNull();
  expect(ev2!.publishedByName).toBe("Admin Antiguo");
  expect(ev2!.createdAt.toISOString()).toBe(NOW.toISOString());
  expect(issuesOf(report, "eventos", "ev2").map((i) => i.field)).toEqual(
    expect.arrayContaining(["enlacesVirtuales[1]", "createdAt", "publishedBy"]),
  );
  expect(issuesOf(report, "eventos", "ev3")[0]!.message).toMatch(/imagenEnlace/);
  expect(issuesOf(report, "eventos", "ev4")[0]!.message).toMatch(/nombreEvento.*horaEvento/s);

  // Participations: deleted events, unknown members and non-lists are skipped and reported.
  const joined = await db
    .select({ uid: users.firebaseUid, event: events.firebaseId })
    .from(participations)
    .innerJoin(users, eq(users.id, participations.userId))
    .innerJoin(events, eq(events.id, participations.eventId))
    .orderBy(asc(users.firebaseUid), asc(events.firebaseId));
  expect(joined).toEqual([
    { uid: "uGoogleAna", event: "ev1" },
    { uid: "uPassLuis", event: "ev1" },
    { uid: "uPassLuis", event: "ev2" },
  ]);
  expect(issuesOf(report, "participations", "uGoogleAna").map((i) => i.field)).toEqual([
    "events[1]",
    "events[2]",
  ]);
  expect(issuesOf(report, "participations", "uFantasma")[0]!.message).toMatch(/no hay miembro/);
  expect(issuesOf(report, "participations", "uNoAuth")[0]!.field).toBe("events");

  // Content with its publisher; a missing createdAt becomes the import time, reported.
  const noteRows = await db.select().from(notes).orderBy(asc(notes.firebaseId));
  expect(noteRows.map((n) => [n.firebaseId, n.publisher, n.publisherName, n.enlaceImagen])).toEqual(
    [
      ["n1", ana!.id, "Ana Quispe", "https://images.example.com/sede.jpg"],
      ["n3", null, "Admin", null],
    ],
  );
  expect(noteRows[0]!.enlacesAdicionales).toEqual(["https://maps.example.com/obrajes"]);
  expect(noteRows[1]!.createdAt.toISOString()).toBe(NOW.toISOString());
  expect(issuesOf(report, "notas", "n3").map((i) => i.field)).toEqual(
    expect.arrayContaining(["enlaceImagen", "ubicacion", "createdAt"]),
  );
  expect(issuesOf(report, "notas", "n1").map((i) => i.field)).toContain("likes");
  expect(issuesOf(report, "notas", "n2")[0]!.message).toMatch(/titulo/);

  const [r1] = await db.select().from(resources);
  expect(r1).toMatchObject({
    firebaseId: "r1",
    enlacesVideos: ["https://www.youtube.com/watch?v=dQw4w9WgXcQ"],
    publisher: ana!.id,
  });
  expect(issuesOf(report, "recursos", "r1")[0]).toMatchObject({ field: "enlacesVideos[1]" });
  expect(issuesOf(report, "recursos", "r2")[0]).toMatchObject({ skipped: true });

  const projectRows = await db.select().from(projects).orderBy(asc(projects.firebaseId));
  expect(projectRows.map((p) => [p.firebaseId, p.enlacesWeb])).toEqual([
    ["p1", ["https://github.com/comunidad/seguidor"]],
    ["p2", ["https://example.com/brazo"]],
  ]);
  expect(issuesOf(report, "proyectos", "p3").map((i) => [i.field, i.skipped])).toEqual([
    ["enlacesDocumentacion[0]", false],
    [undefined, true],
  ]);
  expect(issuesOf(report, "proyectos", "p3")[1]).toMatchObject({
    message: expect.stringMatching(/descripcion: /),
    detail: expect.stringMatching(/descripcion: valor: texto con un carácter nulo/),
  });
  expect(issuesOf(report, "proyectos", "#4")[0]).toMatchObject({ skipped: true, field: "id" });

  // The full report names the collection, the document and the field of every refusal; the
  // screen names each reason once, with its count and a few documents.
  const full = formatFullReport(report).join("\n");
  expect(full).toContain("eventos/ev1 · galleryImages[1]:");
  expect(full).toContain(
    "participations/uGoogleAna · events[1]: el evento no existe (o no se importó) (evento evBorrado)",
  );
  const text = formatReport(report).join("\n");
  expect(text).toContain(
    "  - 2 × participations · events[]: el evento no existe (o no se importó)\n" +
      "      participations/uGoogleAna (evento evBorrado); participations/uGoogleAna (evento ev3)",
  );
  expect(text).toContain("--report ARCHIVO");
});

test("importing the same files again changes and duplicates nothing (but the log says it ran)", async () => {
  const db = await freshDb();
  await importFixtures(db);
  const before = await snapshotTables(db);
  const again = await importFixtures(db);
  for (const [name, c] of again.collections) {
    expect({ name, imported: c.imported, updated: c.updated }).toEqual({
      name,
      imported: 0,
      updated: 0,
    });
  }
  expect(again.collections.get("usuarios")!.unchanged).toBe(6);
  expect(again.collections.get("participations")!.unchanged).toBe(3);
  const { audit_log: logAfter, ...after } = await snapshotTables(db);
  const { audit_log: logBefore, ...rest } = before;
  expect(after).toEqual(rest);
  expect(logAfter!.length).toBe(logBefore!.length + 1);
});

test("a newer export updates what changed, matched by Firebase id", async () => {
  const db = await freshDb();
  await importFixtures(db);
  const data = await readExportFiles(FIXTURE_FILES);
  const ev1 = data.collections.get("eventos")!.get("ev1")!;
  ev1.fields.nombreEvento = "Taller de Micromouse (2.ª edición)";
  ev1.fields.galleryImages = ["https://images.example.com/g2.jpg"];
  data.collections.get("usuarios")!.get("uDup1")!.fields.ciudad = "Oruro";
  const report = await importFirebase(db, data, { timeZone: TZ, now: NOW });
  expect(report.collections.get("eventos")).toMatchObject({
    imported: 0,
    updated: 1,
    unchanged: 1,
  });
  expect(report.collections.get("usuarios")).toMatchObject({
    imported: 0,
    updated: 1,
    unchanged: 5,
  });
  const [row] = await db.select().from(events).where(eq(events.firebaseId, "ev1"));
  expect(row!.nombreEvento).toBe("Taller de Micromouse (2.ª edición)");
  const gallery = await db
    .select({ url: eventImages.url })
    .from(eventImages)
    .where(eq(eventImages.eventId, row!.id));
  expect(gallery).toEqual([{ url: "https://images.example.com/g2.jpg" }]);
  expect(await db.$count(events)).toBe(2);
});

test("a dry run prints the same report and writes nothing", async () => {
  const db = await freshDb();
  const dry = await importFixtures(db, { dryRun: true });
  expect(dry.dryRun).toBe(true);
  expect(await snapshotTables(db)).toEqual(await snapshotTables(await freshDb()));
  const real = await importFixtures(db);
  expect(Object.fromEntries(dry.collections)).toEqual(Object.fromEntries(real.collections));
  expect(dry.issues).toEqual(real.issues);
  expect(formatReport(dry)[0]).toBe("Prueba (--dry-run): no se guardó nada.");
});

test("a database failure half-way leaves the database as it was, with a Spanish message", async () => {
  const db = await freshDb();
  // The database itself refuses the third collection, after members and events were written.
  await db.execute(sql`
    create function refuse_participation() returns trigger language plpgsql as $$
    begin raise exception 'el disco está lleno'; end $$`);
  await db.execute(sql`
    create trigger refuse_participation before insert on participations
    for each row execute function refuse_participation()`);
  const error = await importFixtures(db).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportDatabaseError);
  expect((error as Error).message).toBe(
    "La base de datos rechazó la importación: el disco está lleno. No se guardó nada.",
  );
  for (const table of [users, events, eventImages, participations, notes, resources, projects]) {
    expect(await db.$count(table)).toBe(0);
  }
});

test("unreadable files, invalid JSON and unknown shapes stop the import with the file's name", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-import-"));
  const missing = path.join(dir, "no-existe.json");
  await expect(readExportFiles([missing])).rejects.toThrow(`${missing}: el archivo no existe`);
  await expect(readExportFiles([dir])).rejects.toThrow(`${dir}: es una carpeta, no un archivo`);
  const invalid = fixture("invalid.json");
  await expect(readExportFiles([FIXTURE_FILES[0]!, invalid])).rejects.toThrow(
    `${invalid}: no es JSON válido (línea 1, columna 47)`,
  );
  await expect(readExportFiles([fixture("unknown-format.json")])).rejects.toThrow(
    /no se reconoce el formato/,
  );
  const error = await readExportFiles([invalid]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportFileError);
  fs.rmSync(dir, { recursive: true });
});

test("Firefoo exports of a whole database and Timestamps as ISO strings are read too", async () => {
  const data = emptyExport();
  readExportText(
    data,
    "todo.json",
    JSON.stringify({
      meta: { app: "firefoo", resourcePath: [], version: "1.1.0" },
      data: {
        notas: {
          x1: {
            titulo: "Hola",
            texto: "Mundo",
            createdAt: { __time__: "2024-01-02T03:04:05.000Z" },
          },
        },
      },
    }),
  );
  readExportText(
    data,
    "/tmp/eventos.json",
    JSON.stringify([{ id: "e9", createdAt: "2024-02-03T04:05:06Z" }]),
  );
  expect(data.collections.get("notas")!.get("x1")!.fields.createdAt).toEqual(
    new Date("2024-01-02T03:04:05.000Z"),
  );
  expect(data.collections.get("eventos")!.get("e9")!.fields.createdAt).toBe("2024-02-03T04:05:06Z");
  const db = await freshDb();
  const report = await importFirebase(db, data, { timeZone: TZ, now: NOW });
  expect(report.collections.get("notas")).toMatchObject({ imported: 1 });
  expect(report.collections.get("eventos")).toMatchObject({ skipped: 1 });
});

/** The rows of `users` as JSON text by Firebase uid, to compare before and after an import. */
async function membersByUid(db: Database["db"]) {
  const rows = await db.select().from(users).orderBy(asc(users.firebaseUid));
  return new Map(rows.map((row) => [row.firebaseUid, JSON.stringify(row)]));
}

function exportOf(files: Record<string, unknown>) {
  const data = emptyExport();
  for (const [file, content] of Object.entries(files))
    readExportText(data, file, typeof content === "string" ? content : JSON.stringify(content));
  return data;
}

test("an Auth export imported alone fills only the account fields still empty: no profile is blanked, no admin lost, no date replaced", async () => {
  const db = await freshDb();
  await importFixtures(db);
  // Ana's name and Google account as if never given; Luis has signed in on the new site since.
  await db
    .update(users)
    .set({ displayName: null, firebaseGoogleSubject: null })
    .where(eq(users.firebaseUid, "uGoogleAna"));
  await db
    .update(users)
    .set({ issuer: "https://accounts.google.com", subject: "google-luis", email: "luis@nuevo.bo" })
    .where(eq(users.firebaseUid, "uPassLuis"));
  const before = await membersByUid(db);

  // Alone, and beside a Firestore file without usuarios: the same result.
  for (const files of [
    { "users.json": fs.readFileSync(fixture("users.json"), "utf8") },
    {
      "users.json": fs.readFileSync(fixture("users.json"), "utf8"),
      "otras.json": { notas: { nOtra: { titulo: "Otra", texto: "Nota" } } },
    },
  ]) {
    const report = await importFirebase(db, exportOf(files), { timeZone: TZ, now: NOW });
    const after = await membersByUid(db);
    const [ana] = await db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
    expect(ana).toMatchObject({
      displayName: "Ana Quispe",
      firebaseGoogleSubject: "108000000000000000001",
      isAdmin: true,
      nombreCompleto: "Ana Quispe Mamani",
      genero: "Femenino",
      habilidades: "Robótica",
      email: "Ana.Quispe@Example.com",
    });
    expect(ana!.createdAt.toISOString()).toBe("2023-01-01T00:00:00.123Z");
    for (const [uid, row] of before) if (uid !== "uGoogleAna") expect(after.get(uid)).toBe(row);
    expect(await db.$count(users, eq(users.isAdmin, true))).toBe(1);
    expect(issuesOf(report, "usuarios", "uGoogleAna")[0]!.message).toBe(
      "cuenta de Firebase Auth sin documento en usuarios: solo se completan los datos de la cuenta que faltan; el perfil no cambia",
    );
    expect(issuesOf(report, "usuarios", "uPassLuis").at(-1)).toMatchObject({
      skipped: true,
      message: "ya inició sesión en Ayllu: su perfil no se sobrescribe",
    });
  }
});

test("a usuarios document changes only the fields it holds", async () => {
  const db = await freshDb();
  await importFixtures(db);
  const [before] = await db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
  const report = await importFirebase(
    db,
    exportOf({
      "usuarios.json": [
        { id: "uGoogleAna", email: "ana@nueva.bo", ciudad: "El Alto", genero: "Marciano" },
      ],
    }),
    { timeZone: TZ, now: NOW },
  );
  expect(report.collections.get("usuarios")).toMatchObject({ updated: 1 });
  const [after] = await db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
  expect(after).toEqual({
    ...before,
    email: "ana@nueva.bo",
    ciudad: "El Alto",
    updatedAt: before!.updatedAt,
  });
});

test("an import that would leave a site without admins is refused whole; a first import without admins is not", async () => {
  const db = await freshDb();
  const withoutAdmins = exportOf({
    "usuarios.json": [{ id: "uSolo", email: "solo@example.com", isAdmin: false }],
  });
  const first = await importFirebase(db, withoutAdmins, { timeZone: TZ, now: NOW });
  expect(first.collections.get("usuarios")).toMatchObject({ imported: 1 });

  await importFixtures(db);
  const snapshot = await snapshotTables(db);
  const demoting = exportOf({
    "usuarios.json": [{ id: "uGoogleAna", email: "ana.quispe@example.com", isAdmin: false }],
    "notas.json": [{ id: "nNueva", titulo: "Nueva", texto: "No debe quedar" }],
  });
  for (const dryRun of [true, false]) {
    const error = await importFirebase(db, demoting, { timeZone: TZ, now: NOW, dryRun }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportWouldRemoveAdminsError);
    expect((error as Error).message).toMatch(
      /^La importación dejaría el sitio sin administradores: los archivos quitan isAdmin a Ana\.Quispe@Example\.com\. No se importó nada\./,
    );
    expect(await snapshotTables(db)).toEqual(snapshot);
  }
});

test("keys that JavaScript or Firestore reserve grant nothing and are reported", async () => {
  const db = await freshDb();
  const data = exportOf({
    "firestore.json": `{"usuarios": {
      "uProto": {"email": "proto@example.com", "__proto__": {"isAdmin": true},
                 "habilidades": "Robótica", "constructor": {"isAdmin": true}},
      "uNested": {"email": "nested@example.com", "extra": {"__proto__": {"isAdmin": true}, "a": 1}},
      "__proto__": {"email": "raiz@example.com", "isAdmin": true}
    }}`,
  });
  expect(Object.getPrototypeOf(data.collections.get("usuarios")!.get("uProto")!.fields)).toBeNull();
  const report = await importFirebase(db, data, { timeZone: TZ, now: NOW });
  const rows = await db
    .select({ uid: users.firebaseUid, isAdmin: users.isAdmin })
    .from(users)
    .orderBy(asc(users.firebaseUid));
  expect(rows).toEqual([
    { uid: "uNested", isAdmin: false },
    { uid: "uProto", isAdmin: false },
  ]);
  const reserved = "clave reservada (de Firestore o de JavaScript); se omite";
  expect(
    issuesOf(report, "usuarios", "uProto")
      .filter((i) => i.message === reserved)
      .map((i) => i.field),
  ).toEqual(["__proto__", "constructor"]);
  expect(issuesOf(report, "usuarios", "uNested").find((i) => i.message === reserved)!.field).toBe(
    "extra.__proto__",
  );
  expect(issuesOf(report, "usuarios", "__proto__")[0]).toMatchObject({ skipped: true });
});

test("Firefoo exports keyed by document path are read, and their subcollections reported", async () => {
  const data = await readExportFiles([fixture("firefoo-por-ruta.json")]);
  expect(data.files[0]!.dialect).toBe("firefoo");
  const db = await freshDb();
  const report = await importFirebase(db, data, { timeZone: TZ, now: NOW });
  expect(Object.fromEntries(report.collections)).toMatchObject({
    usuarios: { found: 2, imported: 1, skipped: 1 },
    eventos: { found: 1, imported: 1 },
    participations: { found: 1, imported: 1 },
  });
  const [event] = await db.select().from(events);
  expect(event).toMatchObject({ firebaseId: "evRuta", nombreEvento: "Taller de ROS" });
  expect(issuesOf(report, "eventos", "evRuta")).toEqual([
    expect.objectContaining({
      field: "fotos",
      message: "subcolección que Ayllu no usa; no se importa",
      detail: "2 documento(s)",
    }),
  ]);
  expect(issuesOf(report, "notas", "notas/nHuerfana/comentarios/c1")[0]).toMatchObject({
    skipped: true,
    message:
      "documento de una subcolección cuyo documento padre no está en la exportación; no se importa",
  });
  expect(issuesOf(report, "usuarios", "usuarios")[0]).toMatchObject({
    skipped: true,
    message: "no es la ruta de un documento (colección/id)",
  });
});

test("files that hold no collection of the community's stop the import before the database", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-import-"));
  const other = path.join(dir, "otra.json");
  fs.writeFileSync(other, JSON.stringify({ clientes: { c1: { nombre: "X" } } }));
  const error = await readExportFiles([other]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NothingToImportError);
  expect((error as Error).message).toBe(
    `no se reconoce ninguna colección de la comunidad en ${other} (se esperaba alguna de usuarios, eventos, participations, notas, recursos, proyectos, o usuarios de Firebase Auth; se encontró: clientes)`,
  );
  fs.rmSync(dir, { recursive: true });
});

test("JSON nested deeper than Firestore allows is refused by name, and huge values are never echoed whole", async () => {
  const deep = `{"usuarios": {"u1": {"email": "a@b.c", "x": ${"[".repeat(200_000)}${"]".repeat(200_000)}}}}`;
  expect(() => readExportText(emptyExport(), "profundo.json", deep)).toThrow(
    new ImportFileError(
      "profundo.json",
      "tiene mapas o listas anidados a más de 64 niveles (Firestore admite 20); no es una exportación que se pueda importar",
    ),
  );

  const huge = "x".repeat(1_000_000);
  const data = exportOf({
    "grande.json": {
      usuarios: {
        uGrande: { email: "g@example.com", nombreCompleto: huge, [huge]: 1, habilidades: [huge] },
        [huge]: { email: "h@example.com" },
      },
      notas: { nGrande: { titulo: huge, texto: huge } },
    },
  });
  const db = await freshDb();
  const report = await importFirebase(db, data, { timeZone: TZ, now: NOW });
  expect(report.collections.get("usuarios")).toMatchObject({ imported: 1, skipped: 1 });
  const full = formatFullReport(report).join("\n");
  expect(full.length).toBeLessThan(5_000);
  expect(formatReport(report).join("\n").length).toBeLessThan(5_000);
  expect(full).toContain("usuarios/uGrande · nombreCompleto:");
});

test("an import is in the audit log: by the admin named with --como, else by the system; a dry run writes no entry", async () => {
  const db = await freshDb();
  await importFixtures(db, { dryRun: true });
  expect(await db.$count(auditLog)).toBe(0);
  await importFixtures(db);
  const [admin] = await db.select().from(users).where(eq(users.isAdmin, true)).limit(1);
  await importFirebase(db, await readExportFiles(FIXTURE_FILES), {
    timeZone: TZ,
    now: NOW,
    by: admin!,
  });
  const log = await db
    .select({ actorId: auditLog.actorId, actorName: auditLog.actorName, role: auditLog.role })
    .from(auditLog)
    .orderBy(asc(auditLog.at));
  expect(log).toEqual([
    { actorId: null, actorName: "Importación", role: "system" },
    { actorId: admin!.id, actorName: admin!.nombreCompleto, role: "admin" },
  ]);
});
