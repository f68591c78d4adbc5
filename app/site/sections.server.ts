// The landing pages' content (docs/decisions/023-site-content.md): one row per section, written
// with the defaults once, edited by admins at /admin/sitio. Every page reads it — the footer's
// social links are on all of them — so each process keeps it in memory and forgets it when the
// table changes (its own write, or a NOTIFY from the page-cache trigger of any process).
import { sql } from "drizzle-orm";
import { SITE_DEFAULTS } from "~/site/copy/section-defaults";
import type { SiteSections, SiteSectionKey } from "~/site/sections";
import { emptySection, SITE_SECTION_KEYS, sectionSpec } from "~/site/section-fields";
import { siteSectionSchema } from "~/site/section-schemas";
import type { Db } from "~/db/client.server";
import { siteSections, type User } from "~/db/schema.server";
import { tableMemory } from "~/db/table-memory.server";
import { assertMay } from "~/members/permissions.server";
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

async function readAll(db: Db): Promise<SiteSections> {
  const rows = await db
    .select({ section: siteSections.section, content: siteSections.content })
    .from(siteSections);
  const stored = new Map(rows.map((row) => [row.section, row.content]));
  const content = {} as Record<SiteSectionKey, unknown>;
  for (const key of SITE_SECTION_KEYS) {
    // Fields added since the row was written start empty, fields gone are left out; a row that
    // still does not fit its schema (written by hand, say) shows nothing, never a 500.
    const parsed = siteSectionSchema(key).safeParse(knownFields(key, stored.get(key)));
    content[key] = parsed.success ? parsed.data : emptySection(key);
  }
  return content as SiteSections;
}

const memory = tableMemory(["site_content"], readAll);

/**
 * Keeps this database's content in memory from now on, forgotten whenever `site_content` changes
 * in any process. Resolves once listening; returns the function that stops it.
 */
export const watchSiteSections = memory.watch;

/** Every section's content, from memory when this process watches the table (one query if not). */
export const loadSiteSections = memory.load;

const forget = memory.forget;

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
