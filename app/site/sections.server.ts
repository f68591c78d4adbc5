// The landing pages' content (docs/decisions/023-site-content.md): one row per section, written
// with the defaults once, edited by admins at /admin/sitio. Every page reads it — the footer's
// social links are on all of them — so each process keeps it in memory and forgets it when the
// table changes (its own write, or a NOTIFY from the page-cache trigger of any process).
import { eq, sql } from "drizzle-orm";
import { SITE_DEFAULTS } from "~/site/copy/section-defaults";
import type { SiteSections, SiteSectionKey } from "~/site/sections";
import {
  emptySection,
  isSiteSectionKey,
  SITE_SECTION_KEYS,
  sectionSpec,
} from "~/site/section-fields";
import { siteSectionSchema } from "~/site/section-schemas";
import type { Db } from "~/db/client.server";
import { appMeta, siteSections, type User } from "~/db/schema.server";
import { tableMemory } from "~/db/table-memory.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { Refusal } from "~/kernel/errors";

export class SiteSectionInvalidError extends Refusal {
  override name = "SiteSectionInvalidError";
  constructor(message: string) {
    super(message, 400);
  }
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A stored row with the section's fields as they are now: new ones empty, gone ones left out. */
function knownFields(key: SiteSectionKey, stored: unknown): unknown {
  if (stored === undefined) return undefined;
  const spec = sectionSpec(key);
  const row = record(stored);
  const out: Record<string, unknown> = {};
  for (const field of spec.fields) out[field.name] = row[field.name] ?? "";
  for (const list of spec.lists) {
    const rows = Array.isArray(row[list.name]) ? (row[list.name] as unknown[]) : [];
    out[list.name] = rows.map((item) =>
      Object.fromEntries(list.fields.map((f) => [f.name, record(item)[f.name] ?? ""])),
    );
  }
  if (spec.links) out[spec.links.name] = row[spec.links.name] ?? [];
  return out;
}

/**
 * The sections the demo wrote (SEED_DEMO, docs/decisions/042-demo-sections.md), as a JSON list in
 * `app_meta`. It is written in the transaction that writes those rows, and a section stops being
 * demo content when an admin saves it (`edited_at` set): every change to what is demo is a change
 * to `site_content`, so the memory below, forgotten on each, never holds a stale answer. A backup
 * carries both tables, so a restored demo site is marked as it was.
 */
export const DEMO_SECTIONS_KEY = "demo_sections";

interface SiteContent {
  content: SiteSections;
  /** The sections still holding the demo's content, in page order. */
  demo: SiteSectionKey[];
}

function demoListed(value: string | undefined): Set<string> {
  if (value === undefined) return new Set();
  try {
    const list: unknown = JSON.parse(value);
    return new Set(Array.isArray(list) ? list.filter(isSiteSectionKey) : []);
  } catch {
    return new Set();
  }
}

async function readAll(db: Db): Promise<SiteContent> {
  const [rows, meta] = await Promise.all([
    db
      .select({
        section: siteSections.section,
        content: siteSections.content,
        editedAt: siteSections.editedAt,
      })
      .from(siteSections),
    db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, DEMO_SECTIONS_KEY)),
  ]);
  const stored = new Map(rows.map((row) => [row.section, row.content]));
  const content = {} as Record<SiteSectionKey, unknown>;
  for (const key of SITE_SECTION_KEYS) {
    // Fields added since the row was written start empty, fields gone are left out; a row that
    // still does not fit its schema (written by hand, say) shows nothing, never a 500.
    const parsed = siteSectionSchema(key).safeParse(knownFields(key, stored.get(key)));
    content[key] = parsed.success ? parsed.data : emptySection(key);
  }
  const listed = demoListed(meta[0]?.value);
  const unedited = new Set(rows.filter((row) => row.editedAt === null).map((row) => row.section));
  return {
    content: content as SiteSections,
    demo: SITE_SECTION_KEYS.filter((key) => listed.has(key) && unedited.has(key)),
  };
}

const memory = tableMemory(["site_content"], readAll);

/**
 * Keeps this database's content in memory from now on, forgotten whenever `site_content` changes
 * in any process. Resolves once listening; returns the function that stops it.
 */
export const watchSiteSections = memory.watch;

/** Every section's content, from memory when this process watches the table (a read if not). */
export async function loadSiteSections(db: Db): Promise<SiteSections> {
  return (await memory.load(db)).content;
}

/** The sections still showing the demo's content (none on a site without SEED_DEMO). */
export async function loadDemoSections(db: Db): Promise<SiteSectionKey[]> {
  return (await memory.load(db)).demo;
}

const forget = memory.forget;

/** Forgets the content kept in memory, after a write made outside this module. */
export const forgetSiteSections = memory.forget;

/**
 * Writes the default content of every section that has no row yet (app/site/copy/section-defaults.ts):
 * a new database gets it once; a section an admin has saved, even emptied, is never written again.
 */
export async function seedSiteSections(db: Db): Promise<SiteSectionKey[]> {
  const written = await db
    .insert(siteSections)
    .values(SITE_SECTION_KEYS.map((key) => ({ section: key, content: SITE_DEFAULTS[key] })))
    .onConflictDoNothing()
    .returning({ section: siteSections.section });
  if (written.length > 0) forget(db);
  return written.map((row) => row.section as SiteSectionKey);
}

/**
 * The demo's content (SEED_DEMO) for the sections that have no row yet, recorded as demo content
 * until an admin saves them. Run once per database, inside the demo's own transaction, before the
 * defaults are written; the caller forgets the memory once it commits (forgetSiteSections).
 */
export async function seedDemoSections(
  tx: Db,
  demo: Partial<SiteSections>,
): Promise<SiteSectionKey[]> {
  const values = SITE_SECTION_KEYS.flatMap((key) =>
    demo[key] ? [{ section: key, content: siteSectionSchema(key).parse(demo[key]) }] : [],
  );
  if (values.length === 0) return [];
  const written = (
    await tx
      .insert(siteSections)
      .values(values)
      .onConflictDoNothing()
      .returning({ section: siteSections.section })
  ).map((row) => row.section as SiteSectionKey);
  await tx
    .insert(appMeta)
    .values({ key: DEMO_SECTIONS_KEY, value: JSON.stringify(written) })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: JSON.stringify(written) } });
  return written;
}

/** An admin saves one section; the content is checked again here, whatever the caller checked. */
export async function saveSiteSection<K extends SiteSectionKey>(
  db: Db,
  actor: User | null | undefined,
  key: K,
  content: SiteSections[K],
): Promise<void> {
  const role = assertMay(actor, "site.edit");
  const parsed = siteSectionSchema(key).safeParse(content);
  if (!parsed.success)
    throw new SiteSectionInvalidError(parsed.error.issues[0]?.message ?? "Contenido no válido.");
  try {
    await db.transaction(async (tx) => {
      await tx
        .insert(siteSections)
        .values({ section: key, content: parsed.data, editedAt: sql`now()`, editedBy: actor!.id })
        .onConflictDoUpdate({
          target: siteSections.section,
          set: { content: parsed.data, editedAt: sql`now()`, editedBy: actor!.id },
        });
      await recordAudit(tx, {
        actor: actor!,
        role,
        action: "site.edit",
        itemKind: "site",
        itemId: key,
        summary: `Cambió la sección «${key}» de las páginas de inicio`,
      });
    });
  } finally {
    forget(db);
  }
}

/** When each section was last saved by an admin (null: still the defaults). */
export async function siteSectionsEdited(
  db: Db,
): Promise<Partial<Record<SiteSectionKey, string | null>>> {
  const rows = await db
    .select({ section: siteSections.section, editedAt: siteSections.editedAt })
    .from(siteSections);
  return Object.fromEntries(rows.map((r) => [r.section, r.editedAt?.toISOString() ?? null]));
}
