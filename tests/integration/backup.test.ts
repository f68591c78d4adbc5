import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, expect, test } from "vitest";
import { createSession } from "~/members/session.server";
import { BackupError, restoreBackup, writeBackup } from "#server/backup/backup.server";
import { openEmbedded, type Database, type Db } from "~/db/client.server";
import {
  appMeta,
  awardCertificates,
  bracketDraws,
  bracketRounds,
  judgingRuns,
  scoreSheets,
  competitionCategories,
  competitionTeams,
  schools,
  teamInvitations,
  teamInspections,
  teamMembers,
  events,
  notes,
  participations,
  paymentMethod,
  payments,
  roleGrants,
  siteSections,
  staffLinks,
  users,
} from "~/db/schema.server";
import { loadDemoSections, seedSiteSections } from "~/site/sections.server";
import { seedDemoSite } from "~/demo.server";
import { SITE_DEFAULTS } from "~/site/copy/section-defaults";
import { importFirebase } from "#server/import/import.server";
import { readExportFiles } from "#server/import/read-export.server";
import { storeImages } from "~/uploads/upload.server";
import { uploadStorage } from "~/uploads/folder-storage.server";
import { privateFolderStorage } from "~/uploads/private-storage.server";
import { savePaymentMethod, storePaymentQr } from "~/payments/payment-method.server";
import { copyEmbeddedTemplate, createTestDatabase, usingPostgres } from "../helpers/database";
import { FIXTURE_FILES, snapshotTables } from "../helpers/firebase";

const opened: Database[] = [];
const dirs: string[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-backup-"));
  dirs.push(dir);
  return dir;
}

async function track(database: Promise<Database>): Promise<Database> {
  const db = await database;
  opened.push(db);
  return db;
}

/** A database with a bit of everything: imported community, a session, odd text. */
async function populate(db: Db) {
  await importFirebase(db, await readExportFiles(FIXTURE_FILES), { timeZone: "America/La_Paz" });
  const [ana] = await db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
  await createSession(db, ana!.id, { secure: false });
  // An upload counted for the per-minute limit (a row written as countUpload writes it).
  await db.execute(sql`insert into upload_attempts (user_id) values (${ana!.id})`);
  await db.insert(notes).values({
    titulo: "Comillas \"dobles\", 'simples', \\ barra, emoji 🤖 y\nsalto",
    texto: '{"json": [1, 2]}',
    publisherName: "Admin",
  });
  await db.insert(appMeta).values({ key: "demo_seeded", value: "1" });
  // A role for one event (the import wrote the log's first entry).
  const [event] = await db.select({ id: events.id }).from(events).limit(1);
  await db.insert(roleGrants).values({ userId: ana!.id, kind: "door", eventId: event!.id });
  // A staff link of that event (decision 041), and a check-in made through it.
  const [link] = await db
    .insert(staffLinks)
    .values({
      eventId: event!.id,
      label: "Lucía «puerta»",
      tokenHash: "hash-de-prueba",
      expiresAt: new Date("2030-01-01T00:00:00Z"),
      createdBy: ana!.id,
      createdByName: "Ana",
    })
    .returning();
  await db
    .insert(participations)
    .values({ eventId: event!.id, userId: ana!.id })
    .onConflictDoNothing();
  await db
    .update(participations)
    .set({ checkedInAt: new Date("2029-12-31T20:00:00Z"), checkedInByLink: link!.id })
    .where(and(eq(participations.eventId, event!.id), eq(participations.userId, ana!.id)));
}

test(`a backup of the embedded database restores into ${usingPostgres ? "PostgreSQL" : "another embedded database"} and back with every row equal`, async () => {
  const dir = tempDir();
  // A data folder a server has run in (a copy of the migrated template).
  const source = await track(openEmbedded(copyEmbeddedTemplate(path.join(dir, "origen"))));
  await populate(source.db);
  const expected = await snapshotTables(source.db);
  expect(expected.users!.length).toBe(6);

  const first = path.join(dir, "copia.ayllu.gz");
  const header = await writeBackup(source.db, first, source.kind);
  expect(header.tables.map((t) => t.name).indexOf("users")).toBeLessThan(
    header.tables.map((t) => t.name).indexOf("participations"),
  );

  const server = await track(createTestDatabase());
  const counts = await restoreBackup(server.db, first);
  expect(counts.users).toBe(6);
  expect(await snapshotTables(server.db)).toEqual(expected);

  // …and back, into a data folder that does not exist yet.
  const second = path.join(dir, "de-vuelta.ayllu.gz");
  await writeBackup(server.db, second, server.kind);
  const back = await track(openEmbedded(path.join(dir, "nueva-carpeta")));
  await restoreBackup(back.db, second);
  expect(await snapshotTables(back.db)).toEqual(expected);
}, 180_000);

test("a backup from before the per-minute upload count (no upload_attempts table) still restores, with no uploads counted", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const current = path.join(tempDir(), "actual.gz");
  await writeBackup(source.db, current, source.kind);
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as { tables: { name: string }[] };
  expect(header.tables.map((t) => t.name)).toContain("upload_attempts");
  const older = path.join(path.dirname(current), "anterior.gz");
  const withoutTable = {
    ...header,
    tables: header.tables.filter((t) => t.name !== "upload_attempts"),
  };
  const rows = rest.filter((line) => !line.startsWith('{"table":"upload_attempts"'));
  expect(rows.length).toBe(rest.length - 1);
  fs.writeFileSync(older, zlib.gzipSync([JSON.stringify(withoutTable), ...rows].join("\n")));

  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.users).toBe(6);
  const restored = await snapshotTables(target.db);
  expect(restored.upload_attempts).toEqual([]);
  const { upload_attempts: _counted, ...everythingElse } = await snapshotTables(source.db);
  expect(restored).toEqual({ ...everythingElse, upload_attempts: [] });
});

test("a backup from before roles and the audit log (no role_grants, no audit_log, no door hours) still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const current = path.join(tempDir(), "actual.gz");
  await writeBackup(source.db, current, source.kind);
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as {
    tables: { name: string; columns: string[]; rows: number }[];
  };
  const gone = new Set(["role_grants", "audit_log"]);
  const doorHours = ["door_hours_before", "door_hours_after"];
  const older = path.join(path.dirname(current), "anterior.gz");
  const olderHeader = {
    ...header,
    tables: header.tables
      .filter((t) => !gone.has(t.name))
      .map((t) =>
        t.name === "events"
          ? { ...t, columns: t.columns.filter((c) => !doorHours.includes(c)) }
          : t,
      ),
  };
  const rows = rest.flatMap((line) => {
    const entry = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (entry.table && gone.has(entry.table)) return [];
    if (entry.table === "events") for (const c of doorHours) delete entry.row![c];
    return [JSON.stringify(entry)];
  });
  fs.writeFileSync(older, zlib.gzipSync([JSON.stringify(olderHeader), ...rows].join("\n")));

  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.users).toBe(6);
  const restored = await snapshotTables(target.db);
  expect(restored.role_grants).toEqual([]);
  expect(restored.audit_log).toEqual([]);
  const hours = await target.db
    .select({ before: events.doorHoursBefore, after: events.doorHoursAfter })
    .from(events);
  expect(hours.length).toBeGreaterThan(0);
  for (const h of hours) expect(h).toEqual({ before: 3, after: 6 });
});

test("a backup from before staff links (no staff_links, no participations.checked_in_by_link) still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const current = path.join(tempDir(), "actual.gz");
  await writeBackup(source.db, current, source.kind);
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as {
    tables: { name: string; columns: string[]; rows: number }[];
  };
  expect(header.tables.map((t) => t.name)).toContain("staff_links");
  const older = path.join(path.dirname(current), "anterior.gz");
  const olderHeader = {
    ...header,
    tables: header.tables
      .filter((t) => t.name !== "staff_links")
      .map((t) =>
        t.name === "participations"
          ? { ...t, columns: t.columns.filter((c) => c !== "checked_in_by_link") }
          : t,
      ),
  };
  const rows = rest.flatMap((line) => {
    const entry = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (entry.table === "staff_links") return [];
    if (entry.table === "participations") delete entry.row!.checked_in_by_link;
    return [JSON.stringify(entry)];
  });
  expect(rows.length).toBe(rest.length - 1);
  fs.writeFileSync(older, zlib.gzipSync([JSON.stringify(olderHeader), ...rows].join("\n")));

  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.users).toBe(6);
  const restored = await snapshotTables(target.db);
  expect(restored.staff_links).toEqual([]);
  const original = await snapshotTables(source.db);
  const read = (rows: string[] | undefined) =>
    (rows ?? []).map((r) => JSON.parse(r) as Record<string, unknown>);
  expect(read(restored.participations)).toEqual(
    read(original.participations).map((p) => ({ ...p, checked_in_by_link: null })),
  );
  expect(read(original.participations).some((p) => p.checked_in_by_link !== null)).toBe(true);
});

test("a database that holds anything is refused unless asked with force, which replaces it", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  await populate(source.db);
  const file = path.join(dir, "copia.gz");
  await writeBackup(source.db, file, source.kind);

  const target = await track(createTestDatabase());
  await target.db.insert(appMeta).values({ key: "otra", value: "cosa" });
  await expect(restoreBackup(target.db, file)).rejects.toThrow(
    "La base de datos de destino no está vacía (app_meta: 1). Usa --force para reemplazar todo su contenido por la copia.",
  );
  expect(await target.db.$count(users)).toBe(0);
  await restoreBackup(target.db, file, { force: true });
  expect(await snapshotTables(target.db)).toEqual(await snapshotTables(source.db));
}, 120_000);

test("the landing sections' defaults do not make a database 'not empty'; the backup's content replaces them", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  await populate(source.db);
  await seedSiteSections(source.db);
  await source.db
    .update(siteSections)
    .set({ content: { ...SITE_DEFAULTS.hero, title: "Desde la copia" }, editedAt: new Date() })
    .where(eq(siteSections.section, "hero"));
  const file = path.join(dir, "con-contenido.gz");
  await writeBackup(source.db, file, source.kind);

  // A server started once on the new database wrote the defaults; the restore goes on.
  const target = await track(createTestDatabase());
  expect(await seedSiteSections(target.db)).toHaveLength(Object.keys(SITE_DEFAULTS).length);
  await restoreBackup(target.db, file);
  expect(await snapshotTables(target.db)).toEqual(await snapshotTables(source.db));
  const [hero] = await target.db
    .select()
    .from(siteSections)
    .where(eq(siteSections.section, "hero"));
  expect(hero!.content).toMatchObject({ title: "Desde la copia" });

  // A section an admin saved is the community's content: that database is not empty.
  const edited = await track(createTestDatabase());
  await seedSiteSections(edited.db);
  await edited.db
    .update(siteSections)
    .set({ editedAt: new Date() })
    .where(eq(siteSections.section, "social"));
  await expect(restoreBackup(edited.db, file)).rejects.toThrow(
    "La base de datos de destino no está vacía (site_content: 1).",
  );
}, 120_000);

test("a demo site's backup restores with the same sections marked as demo; a real site's, forced over a demo, with none", async () => {
  const dir = tempDir();
  const demo = await track(createTestDatabase());
  await seedDemoSite(demo.db);
  await seedSiteSections(demo.db);
  // An admin replaced the leaders (decision 042): no longer demo content.
  await demo.db
    .update(siteSections)
    .set({ editedAt: new Date() })
    .where(eq(siteSections.section, "leaders"));
  // The demo links its course and competition too (decision 076): those rows are demo content.
  const marked = ["allies", "sponsors", "courses", "competition", "course", "social"];
  expect(await loadDemoSections(demo.db)).toEqual(marked);
  const demoFile = path.join(dir, "demo.gz");
  await writeBackup(demo.db, demoFile, demo.kind);

  const target = await track(createTestDatabase());
  await seedSiteSections(target.db);
  await restoreBackup(target.db, demoFile);
  expect(await loadDemoSections(target.db)).toEqual(marked);

  const real = await track(createTestDatabase());
  await populate(real.db);
  await seedSiteSections(real.db);
  const realFile = path.join(dir, "real.gz");
  await writeBackup(real.db, realFile, real.kind);
  await restoreBackup(target.db, realFile, { force: true });
  expect(await loadDemoSections(target.db)).toEqual([]);
}, 120_000);

test("bad backup files are refused with a Spanish message and nothing is written", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  await populate(source.db);
  const good = path.join(dir, "buena.gz");
  await writeBackup(source.db, good, source.kind);
  const lines = zlib.gunzipSync(fs.readFileSync(good)).toString().trimEnd().split("\n");
  const write = (name: string, content: string | Buffer, gzip = true) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, gzip ? zlib.gzipSync(content) : content);
    return file;
  };
  const header = JSON.parse(lines[0]!);
  const cases: [string, string | RegExp][] = [
    [path.join(dir, "no-existe.gz"), /no-existe\.gz: el archivo no existe/],
    [dir, /es una carpeta, no un archivo/],
    [write("texto.gz", "hola, no soy gzip", false), /no es gzip válido/],
    [write("otra-cosa.gz", '{"users": []}\n'), /no es una copia de seguridad de Ayllu/],
    [write("vacia.gz", ""), /no es una copia de seguridad de Ayllu/],
    [write("truncada.gz", lines.slice(0, -3).join("\n")), /está incompleto: .* filas de/],
    [
      write("rota.gz", [...lines.slice(0, 5), "{roto", ...lines.slice(5)].join("\n")),
      /una línea no es JSON válido/,
    ],
    [
      write(
        "futura.gz",
        [JSON.stringify({ ...header, version: 99 }), ...lines.slice(1)].join("\n"),
      ),
      /versión más nueva de Ayllu/,
    ],
    [
      write(
        "columna-nueva.gz",
        [
          JSON.stringify({
            ...header,
            tables: header.tables.map((t: { name: string; columns: string[] }) =>
              t.name === "notes" ? { ...t, columns: [...t.columns, "reacciones"] } : t,
            ),
          }),
          ...lines.slice(1),
        ].join("\n"),
      ),
      /columnas reacciones de notes/,
    ],
    [
      write(
        "valor-malo.gz",
        lines.map((l) => l.replace(/"is_admin":(true|false)/, '"is_admin":"quizás"')).join("\n"),
      ),
      /La base de datos rechazó la restauración: .*No se restauró nada\./,
    ],
  ];
  const target = await track(createTestDatabase());
  const empty = await snapshotTables(target.db);
  for (const [file, message] of cases) {
    const error = await restoreBackup(target.db, file).catch((e: unknown) => e);
    expect(error, file).toBeInstanceOf(BackupError);
    expect((error as Error).message, file).toMatch(message);
    expect(await snapshotTables(target.db)).toEqual(empty);
  }
  await expect(
    writeBackup(source.db, path.join(dir, "no", "existe.gz"), "embedded"),
  ).rejects.toThrow(/No se pudo escribir .*la carpeta no existe/);
}, 180_000);

test("a backup carries the uploaded images, and restore writes them back byte for byte", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const uploads = uploadStorage(path.join(dir, "subidas-origen"));
  const limits = { maxBytes: 1024 * 1024, maxPixels: 1_000_000 };
  const data = await sharp({
    create: { width: 700, height: 400, channels: 3, background: { r: 10, g: 200, b: 90 } },
  })
    .png()
    .toBuffer();
  const [image] = await storeImages(
    uploads,
    { isAdmin: true },
    "admin",
    [{ filename: "respaldo.png", data }],
    limits,
  );
  await source.db.insert(notes).values({
    titulo: "Con foto",
    texto: "Una nota con una imagen subida.",
    enlaceImagen: image!.path,
    publisherName: "Admin",
  });
  const file = path.join(dir, "con-imagenes.ayllu.gz");
  const header = await writeBackup(source.db, file, source.kind, uploads);
  const names = (await uploads.list()).map((f) => f.name).sort();
  expect(names).toHaveLength(3);
  expect(header.files).toBe(3);

  const target = await track(createTestDatabase());
  const restored = uploadStorage(path.join(dir, "subidas-destino"));
  await restoreBackup(target.db, file, { uploads: restored });
  expect((await restored.list()).map((f) => f.name).sort()).toEqual(names);
  for (const name of names) expect(await restored.read(name)).toEqual(await uploads.read(name));
  const [note] = await target.db.select().from(notes);
  expect(note!.enlaceImagen).toBe(image!.path);

  // A file line cut short is refused, naming the backup as incomplete.
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").trimEnd().split("\n");
  const cut = path.join(dir, "sin-una-imagen.ayllu.gz");
  fs.writeFileSync(cut, zlib.gzipSync(`${lines.slice(0, -1).join("\n")}\n`));
  const empty = await track(createTestDatabase());
  await expect(
    restoreBackup(empty.db, cut, { uploads: uploadStorage(path.join(dir, "otra")) }),
  ).rejects.toThrow(`${cut} está incompleto: tiene 2 archivos de 3.`);
  expect(await empty.db.select().from(notes)).toEqual([]);
}, 120_000);

/** Every entry under `dir` (hidden ones too) with its bytes, to compare before and after. */
function folderContents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = entry.isFile()
      ? fs.readFileSync(full).toString("base64")
      : "(carpeta)";
  }
  return out;
}

test("a refused restore leaves the uploads folder as it was, even when images were read before the bad entry", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  const uploads = uploadStorage(path.join(dir, "subidas-origen"));
  const data = await sharp({
    create: { width: 700, height: 400, channels: 3, background: { r: 200, g: 20, b: 90 } },
  })
    .png()
    .toBuffer();
  await storeImages(uploads, { isAdmin: true }, "admin", [{ filename: "a.png", data }], {
    maxBytes: 1024 * 1024,
    maxPixels: 1_000_000,
  });
  await source.db.insert(notes).values({ titulo: "Nota", texto: "Texto.", publisherName: "Admin" });
  const good = path.join(dir, "buena.ayllu.gz");
  await writeBackup(source.db, good, source.kind, uploads);
  const lines = zlib.gunzipSync(fs.readFileSync(good)).toString("utf8").trimEnd().split("\n");
  const header = JSON.parse(lines[0]!) as { files: number };
  expect(header.files).toBe(3);
  const write = (name: string, content: string[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, zlib.gzipSync(`${content.join("\n")}\n`));
    return file;
  };
  const cases: [string, string][] = [
    // Every image is good; the header announces one more than the file has.
    [
      write("una-imagen-de-mas.gz", [JSON.stringify({ ...header, files: 4 }), ...lines.slice(1)]),
      "está incompleto: tiene 3 archivos de 4.",
    ],
    // Three good images, then a damaged one.
    [
      write("imagen-danada.gz", [
        JSON.stringify({ ...header, files: 4 }),
        ...lines.slice(1),
        JSON.stringify({ file: "uploads/../../fuera.webp", size: 1, data: "AA==" }),
      ]),
      "está dañado (imagen uploads/../../fuera.webp).",
    ],
  ];

  // The target folder already holds an image of its own.
  const target = await track(createTestDatabase());
  const targetDir = path.join(dir, "subidas-destino");
  const own = uploadStorage(targetDir);
  await own.write(`${"a".repeat(32)}-320.webp`, Buffer.from("propia"));
  const before = folderContents(targetDir);
  for (const [file, message] of cases) {
    await expect(restoreBackup(target.db, file, { uploads: own }), file).rejects.toThrow(message);
    expect(folderContents(targetDir), file).toEqual(before);
    expect(await target.db.select().from(notes)).toEqual([]);
  }

  // An uploads folder that did not exist is not left behind either.
  const absent = path.join(dir, "datos", "subidas");
  await expect(
    restoreBackup(target.db, cases[0]![0], { uploads: uploadStorage(absent) }),
  ).rejects.toThrow(cases[0]![1]);
  expect(fs.readdirSync(dir)).not.toContain("datos");

  // The good backup still restores into the same folder, beside the image it had.
  await restoreBackup(target.db, good, { uploads: own });
  expect((await own.list()).map((f) => f.name).sort()).toEqual(
    [`${"a".repeat(32)}-320.webp`, ...(await uploads.list()).map((f) => f.name)].sort(),
  );
  expect(fs.readdirSync(targetDir).filter((name) => name.startsWith("."))).toEqual([]);
}, 120_000);

test("a backup carries the payment method and the bank's QR from the private store; a bad private file line is refused and leaves the store as it was", async () => {
  const dir = tempDir();
  const source = await track(createTestDatabase());
  await populate(source.db);
  const privateSource = privateFolderStorage(path.join(dir, "privado-origen"));
  const [admin] = await source.db
    .insert(users)
    .values({
      issuer: "https://respaldo.invalid",
      subject: "tesoreria",
      email: "t@example.com",
      isAdmin: true,
    })
    .returning();
  const qr = await sharp({
    create: { width: 120, height: 120, channels: 3, background: { r: 0, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  await storePaymentQr(
    source.db,
    privateSource,
    admin!,
    { filename: "qr.png", data: qr },
    {
      maxBytes: 1024 * 1024,
      maxPixels: 1_000_000,
    },
  );
  await savePaymentMethod(source.db, admin!, {
    accountHolder: "Asociación Ayllu",
    bank: "Banco Unión",
    instructions: "Escribe tu código en la glosa.",
    qrExpiresOn: "2031-01-31",
  });
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  await source.db.update(events).set({ priceCents: 3050 }).where(eq(events.id, event!.id));
  // A payment with its receipt in the private store.
  const receipt = `${"b".repeat(32)}.pdf`;
  await privateSource.write(receipt, Buffer.from("%PDF-1.4\n%%EOF\n"));
  await source.db.insert(payments).values({
    eventId: event!.id,
    userId: admin!.id,
    amountCents: 3050,
    status: "submitted",
    receiptFile: receipt,
    transactionNumber: "TRX-1",
  });
  const expected = await snapshotTables(source.db);
  expect(expected.payments).toHaveLength(1);
  const file = path.join(dir, "con-pagos.ayllu.gz");
  const header = await writeBackup(source.db, file, source.kind, undefined, privateSource);
  const qrName = (JSON.parse(expected.payment_method![0]!) as { qr_file: string }).qr_file;
  expect(header.files).toBe(2);

  const target = await track(createTestDatabase());
  const privateTarget = privateFolderStorage(path.join(dir, "privado-destino"));
  await restoreBackup(target.db, file, { privateFiles: privateTarget });
  expect(await snapshotTables(target.db)).toEqual(expected);
  expect((await privateTarget.list()).map((f) => f.name).sort()).toEqual([qrName, receipt].sort());
  for (const name of [qrName, receipt])
    expect(await privateTarget.read(name)).toEqual(await privateSource.read(name));

  // A private file line with a name outside the private store's, or a wrong size: refused.
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").trimEnd().split("\n");
  const fileLine = JSON.parse(lines.at(-1)!) as { file: string; size: number; data: string };
  for (const [label, bad] of [
    ["nombre", { ...fileLine, file: "privado/../../etc/passwd" }],
    ["tamaño", { ...fileLine, size: fileLine.size + 1 }],
  ] as const) {
    const damaged = path.join(dir, `privado-${label}.ayllu.gz`);
    fs.writeFileSync(
      damaged,
      zlib.gzipSync([...lines.slice(0, -1), JSON.stringify(bad)].join("\n")),
    );
    const empty = await track(createTestDatabase());
    const store = privateFolderStorage(path.join(dir, `privado-${label}`));
    await expect(restoreBackup(empty.db, damaged, { privateFiles: store })).rejects.toThrow(
      "está dañado (archivo",
    );
    expect(await store.list()).toEqual([]);
    expect(await empty.db.select().from(paymentMethod)).toEqual([]);
  }
}, 120_000);

test("a backup from before payments (no payment_method, no payments, no events.price_cents or hold_hours) still restores, its events free", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const current = path.join(tempDir(), "actual.gz");
  await writeBackup(source.db, current, source.kind);
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as {
    tables: { name: string; columns: string[]; rows: number }[];
  };
  const older = path.join(path.dirname(current), "anterior.gz");
  const olderHeader = {
    ...header,
    tables: header.tables
      .filter((t) => t.name !== "payment_method" && t.name !== "payments")
      .map((t) =>
        t.name === "events"
          ? { ...t, columns: t.columns.filter((c) => c !== "price_cents" && c !== "hold_hours") }
          : t,
      ),
  };
  const rows = rest.flatMap((line) => {
    const entry = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (entry.table === "payment_method" || entry.table === "payments") return [];
    if (entry.table === "events") {
      delete entry.row!.price_cents;
      delete entry.row!.hold_hours;
    }
    return [JSON.stringify(entry)];
  });
  fs.writeFileSync(older, zlib.gzipSync([JSON.stringify(olderHeader), ...rows].join("\n")));

  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  const prices = await target.db.select({ price: events.priceCents }).from(events);
  for (const p of prices) expect(p.price).toBe(0);
  expect(await target.db.select().from(paymentMethod)).toEqual([]);
});

test("a competition's categories travel in a backup; a backup from before them (no competition_categories) still restores, its events without categories", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  await source.db.insert(competitionCategories).values({
    eventId: event!.id,
    position: 1,
    name: "Robot Sumo «3 kg»",
    level: "secundaria",
    minMembers: 2,
    maxMembers: 3,
    coachRequired: true,
    robotRules: "Autónomo.\nSin armas.",
    maxWeightGrams: 3000,
    capacity: 16,
    feeCents: 3050,
    registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
    format: "llaves",
  });
  const expected = await snapshotTables(source.db);
  expect(expected.competition_categories).toHaveLength(1);
  const current = path.join(tempDir(), "con-categorias.gz");
  await writeBackup(source.db, current, source.kind);
  const restored = await track(createTestDatabase());
  await restoreBackup(restored.db, current);
  expect(await snapshotTables(restored.db)).toEqual(expected);

  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as { tables: { name: string }[] };
  expect(header.tables.map((t) => t.name)).toContain("competition_categories");
  const older = path.join(path.dirname(current), "anterior.gz");
  const rows = rest.filter((line) => !line.startsWith('{"table":"competition_categories"'));
  expect(rows.length).toBe(rest.length - 1);
  fs.writeFileSync(
    older,
    zlib.gzipSync(
      [
        JSON.stringify({
          ...header,
          tables: header.tables.filter((t) => t.name !== "competition_categories"),
        }),
        ...rows,
      ].join("\n"),
    ),
  );
  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  expect(await target.db.select().from(competitionCategories)).toEqual([]);
});

test("teams, their members, invitations and schools travel in a backup; a backup from before them (no such tables) still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  const [person] = await source.db.select({ id: users.id }).from(users).limit(1);
  const [category] = await source.db
    .insert(competitionCategories)
    .values({
      eventId: event!.id,
      position: 1,
      name: "Minisumo",
      level: "primaria",
      minMembers: 2,
      maxMembers: 3,
      coachRequired: true,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "llaves",
    })
    .returning({ id: competitionCategories.id });
  const [school] = await source.db
    .insert(schools)
    .values({ name: "Colegio «San Calixto»" })
    .returning({ id: schools.id });
  const [team] = await source.db
    .insert(competitionTeams)
    .values({
      eventId: event!.id,
      categoryId: category!.id,
      name: "Los Cóndores",
      schoolId: school!.id,
      city: "La Paz",
      robotName: "Illimani",
      captainId: person!.id,
    })
    .returning({ id: competitionTeams.id });
  await source.db
    .insert(teamMembers)
    .values({ teamId: team!.id, userId: person!.id, categoryId: category!.id });
  await source.db
    .insert(teamInvitations)
    .values({ teamId: team!.id, code: "ABCDEFGHJKMNPQRS", createdBy: person!.id });
  const expected = await snapshotTables(source.db);
  for (const table of ["schools", "competition_teams", "team_members", "team_invitations"])
    expect(expected[table], table).toHaveLength(1);
  const current = path.join(tempDir(), "con-equipos.gz");
  await writeBackup(source.db, current, source.kind);
  const restored = await track(createTestDatabase());
  await restoreBackup(restored.db, current);
  expect(await snapshotTables(restored.db)).toEqual(expected);

  // A backup made before migration 0022: no such tables in its header or rows.
  const newTables = ["schools", "competition_teams", "team_members", "team_invitations"];
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as { tables: { name: string }[] };
  const rows = rest.filter((line) => !newTables.some((t) => line.startsWith(`{"table":"${t}"`)));
  expect(rows.length).toBe(rest.length - 4);
  const older = path.join(path.dirname(current), "sin-equipos.gz");
  fs.writeFileSync(
    older,
    zlib.gzipSync(
      [
        JSON.stringify({
          ...header,
          tables: header.tables.filter((t) => !newTables.includes(t.name)),
        }),
        ...rows,
      ].join("\n"),
    ),
  );
  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  expect(await target.db.select().from(competitionTeams)).toEqual([]);
  expect(await target.db.select().from(schools)).toEqual([]);
  expect(await target.db.select().from(competitionCategories)).toHaveLength(1);
});

test("competition day travels in a backup (judges' grants with their category, runs, draws, rounds, score sheets, a category's rules and final mark); a backup from before them still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  const [person] = await source.db.select({ id: users.id }).from(users).limit(1);
  const [category] = await source.db
    .insert(competitionCategories)
    .values({
      eventId: event!.id,
      position: 1,
      name: "Sumo «día»",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "llaves",
      tieRule: "tercero-compartido",
      attempts: 4,
      criteria: [{ id: "c1", name: "Diseño «limpio»", max: 10 }],
      finalAt: new Date("2030-12-01T20:00:00Z"),
      finalBy: person!.id,
      finalByName: "Olga",
    })
    .returning({ id: competitionCategories.id });
  const [school] = await source.db
    .insert(schools)
    .values({ name: "Colegio Día" })
    .returning({ id: schools.id });
  const teams = await source.db
    .insert(competitionTeams)
    .values(
      ["Alfa", "Beta"].map((name) => ({
        eventId: event!.id,
        categoryId: category!.id,
        name,
        schoolId: school!.id,
        city: "Oruro",
        robotName: "R",
        status: "approved",
      })),
    )
    .returning({ id: competitionTeams.id });
  const [a, b] = teams.map((t) => t.id) as [string, string];
  await source.db
    .insert(roleGrants)
    .values({ userId: person!.id, kind: "judge", eventId: event!.id, categoryId: category!.id });
  const entered = { enteredBy: person!.id, enteredByName: "Julia" };
  await source.db.insert(judgingRuns).values([
    { categoryId: category!.id, teamId: a, attempt: 1, timeMs: 12_345, penaltyMs: 500, ...entered },
    {
      categoryId: category!.id,
      teamId: a,
      attempt: 1,
      timeMs: null,
      state: "conflict",
      clientEntryId: "abcdefgh-1234",
      ...entered,
    },
  ]);
  await source.db.insert(bracketDraws).values({
    categoryId: category!.id,
    method: "sorteo",
    seed: 4_294_967_295,
    teamIds: [b, a],
    madeBy: person!.id,
    madeByName: "Olga",
  });
  await source.db
    .insert(bracketRounds)
    .values({ categoryId: category!.id, matchKey: "r1-0", round: 1, winnerTeamId: b, ...entered });
  await source.db.insert(scoreSheets).values({
    categoryId: category!.id,
    teamId: b,
    judgeId: person!.id,
    judgeName: "Julia",
    points: { c1: 950 },
    ...entered,
  });
  const newTables = ["judging_runs", "bracket_draws", "bracket_rounds", "score_sheets"];
  const expected = await snapshotTables(source.db);
  for (const table of newTables) expect(expected[table], table).not.toHaveLength(0);
  const current = path.join(tempDir(), "con-resultados.gz");
  await writeBackup(source.db, current, source.kind);
  const restored = await track(createTestDatabase());
  await restoreBackup(restored.db, current);
  expect(await snapshotTables(restored.db)).toEqual(expected);

  // A backup made before migration 0025: no such tables, and no new columns in its rows.
  const newColumns: Record<string, string[]> = {
    competition_categories: [
      "tie_rule",
      "attempts",
      "criteria",
      "final_at",
      "final_by",
      "final_by_name",
    ],
    role_grants: ["category_id"],
  };
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as {
    tables: { name: string; columns: string[]; rows: number }[];
  };
  const rows = rest
    .filter((line) => !newTables.some((t) => line.startsWith(`{"table":"${t}"`)))
    .map((line) => {
      const parsed = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
      if (!parsed.table || !newColumns[parsed.table]) return line;
      // The judge's grant did not exist then either.
      if (parsed.table === "role_grants" && parsed.row!.kind === "judge") return null;
      for (const column of newColumns[parsed.table]!) delete parsed.row![column];
      return JSON.stringify(parsed);
    })
    .filter((line): line is string => line !== null);
  const older = path.join(path.dirname(current), "sin-resultados.gz");
  fs.writeFileSync(
    older,
    zlib.gzipSync(
      [
        JSON.stringify({
          ...header,
          tables: header.tables
            .filter((t) => !newTables.includes(t.name))
            .map((t) => ({
              ...t,
              columns: t.columns.filter((c) => !(newColumns[t.name] ?? []).includes(c)),
              rows: rows.filter((line) => line.startsWith(`{"table":"${t.name}"`)).length,
            })),
        }),
        ...rows,
      ].join("\n"),
    ),
  );
  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  for (const table of [judgingRuns, bracketDraws, bracketRounds, scoreSheets])
    expect(await target.db.select().from(table)).toEqual([]);
  const [restoredCategory] = await target.db.select().from(competitionCategories);
  expect(restoredCategory).toMatchObject({
    tieRule: null,
    attempts: 3,
    criteria: [],
    finalAt: null,
    finalByName: null,
  });
  expect(await target.db.select().from(roleGrants).where(eq(roleGrants.kind, "judge"))).toEqual([]);
  expect(await target.db.select().from(roleGrants)).not.toEqual([]);
});

test("robots' inspections, categories' starts and seatless participations travel in a backup; a backup from before them still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  const [person] = await source.db.select({ id: users.id }).from(users).limit(1);
  const [category] = await source.db
    .insert(competitionCategories)
    .values({
      eventId: event!.id,
      position: 1,
      name: "Seguidor de línea",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      startsAt: new Date("2030-12-01T14:30:00Z"),
      format: "tiempo",
    })
    .returning({ id: competitionCategories.id });
  const [school] = await source.db
    .insert(schools)
    .values({ name: "Universidad Mayor de San Andrés" })
    .returning({ id: schools.id });
  const [team] = await source.db
    .insert(competitionTeams)
    .values({
      eventId: event!.id,
      categoryId: category!.id,
      name: "Rayo",
      schoolId: school!.id,
      city: "El Alto",
      robotName: "Chasqui",
      captainId: person!.id,
      status: "approved",
    })
    .returning({ id: competitionTeams.id });
  await source.db.insert(teamInspections).values([
    {
      teamId: team!.id,
      result: "failed",
      notes: "Pesa 520 g; «máximo» 500 g\nvolver",
      inspectedBy: person!.id,
      inspectedByName: "Pedro Puerta",
      createdAt: new Date("2030-12-01T13:00:00Z"),
    },
    {
      teamId: team!.id,
      result: "passed",
      inspectedBy: null,
      inspectedByName: "cuenta eliminada",
      createdAt: new Date("2030-12-01T13:20:00Z"),
    },
  ]);
  await source.db
    .update(participations)
    .set({ seat: false })
    .where(eq(participations.eventId, event!.id));
  const expected = await snapshotTables(source.db);
  expect(expected.team_inspections).toHaveLength(2);
  const current = path.join(tempDir(), "con-inspecciones.gz");
  await writeBackup(source.db, current, source.kind);
  const restored = await track(createTestDatabase());
  await restoreBackup(restored.db, current);
  expect(await snapshotTables(restored.db)).toEqual(expected);

  // A backup made before migration 0023: no inspections, no start, no seat column.
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as {
    tables: { name: string; columns: string[] }[];
  };
  const added: Record<string, string> = {
    participations: "seat",
    competition_categories: "starts_at",
  };
  const withoutColumn = (line: string, table: string, column: string) => {
    if (!line.startsWith(`{"table":"${table}"`)) return line;
    const parsed = JSON.parse(line) as { table: string; row: Record<string, unknown> };
    delete parsed.row[column];
    return JSON.stringify(parsed);
  };
  const rows = rest
    .filter((line) => !line.startsWith('{"table":"team_inspections"'))
    .map((line) => withoutColumn(line, "participations", "seat"))
    .map((line) => withoutColumn(line, "competition_categories", "starts_at"));
  expect(rows.length).toBe(rest.length - 2);
  const older = path.join(path.dirname(current), "sin-inspecciones.gz");
  fs.writeFileSync(
    older,
    zlib.gzipSync(
      [
        JSON.stringify({
          ...header,
          tables: header.tables
            .filter((t) => t.name !== "team_inspections")
            .map((t) => ({ ...t, columns: t.columns.filter((c) => c !== added[t.name]) })),
        }),
        ...rows,
      ].join("\n"),
    ),
  );
  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  expect(await target.db.select().from(teamInspections)).toEqual([]);
  const [restoredCategory] = await target.db.select().from(competitionCategories);
  expect(restoredCategory?.startsAt).toBeNull();
  const seats = await target.db.select({ seat: participations.seat }).from(participations);
  expect(seats.length).toBeGreaterThan(0);
  expect(seats.every((s) => s.seat)).toBe(true);
});

test("certificates by place travel in a backup with their codes; a backup from before them still restores", async () => {
  const source = await track(createTestDatabase());
  await populate(source.db);
  const [event] = await source.db.select({ id: events.id }).from(events).limit(1);
  const [person] = await source.db.select({ id: users.id }).from(users).limit(1);
  const [category] = await source.db
    .insert(competitionCategories)
    .values({
      eventId: event!.id,
      position: 1,
      name: "Seguidor de línea",
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "tiempo",
      finalAt: new Date("2030-12-01T18:00:00Z"),
      finalByName: "Olga Organiza",
    })
    .returning({ id: competitionCategories.id });
  const [school] = await source.db
    .insert(schools)
    .values({ name: "Colegio San Calixto" })
    .returning({ id: schools.id });
  const [team] = await source.db
    .insert(competitionTeams)
    .values({
      eventId: event!.id,
      categoryId: category!.id,
      name: "Rayo",
      schoolId: school!.id,
      city: "El Alto",
      robotName: "Chasqui",
      captainId: person!.id,
      status: "approved",
    })
    .returning({ id: competitionTeams.id });
  await source.db
    .insert(teamMembers)
    .values({ teamId: team!.id, userId: person!.id, categoryId: category!.id });
  await source.db.insert(awardCertificates).values({
    categoryId: category!.id,
    teamId: team!.id,
    userId: person!.id,
    createdAt: new Date("2030-12-01T18:05:00Z"),
  });
  const expected = await snapshotTables(source.db);
  expect(expected.award_certificates).toHaveLength(1);
  const current = path.join(tempDir(), "con-certificados.gz");
  await writeBackup(source.db, current, source.kind);
  const restored = await track(createTestDatabase());
  await restoreBackup(restored.db, current);
  expect(await snapshotTables(restored.db)).toEqual(expected);

  // A backup made before migration 0027: no certificates by place; they are made again on need.
  const [headerLine, ...rest] = zlib
    .gunzipSync(fs.readFileSync(current))
    .toString()
    .trimEnd()
    .split("\n");
  const header = JSON.parse(headerLine!) as { tables: { name: string }[] };
  const rows = rest.filter((line) => !line.startsWith('{"table":"award_certificates"'));
  expect(rows.length).toBe(rest.length - 1);
  const older = path.join(path.dirname(current), "sin-certificados.gz");
  fs.writeFileSync(
    older,
    zlib.gzipSync(
      [
        JSON.stringify({
          ...header,
          tables: header.tables.filter((t) => t.name !== "award_certificates"),
        }),
        ...rows,
      ].join("\n"),
    ),
  );
  const target = await track(createTestDatabase());
  const counts = await restoreBackup(target.db, older);
  expect(counts.events).toBeGreaterThan(0);
  expect(await target.db.select().from(awardCertificates)).toEqual([]);
  expect(await target.db.select().from(teamMembers)).toHaveLength(1);
});
