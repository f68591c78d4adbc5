// /admin/sitio on the server: what the page shows, and its form posts — one per section, the
// `intent` naming the section. The route checks who is asking, reads the form and dispatches here.
import { data, type AppLoadContext } from "react-router";
import { parseForm, type FieldErrors } from "~/kernel/forms";
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import type { SiteSectionKey } from "~/site/sections";
import { siteFormListFields, siteFormSchema } from "~/site/section-schemas";
import {
  applyRowAction,
  isSiteSectionKey,
  SITE_SECTION_KEYS,
  sectionSpec,
  valuesFromSection,
} from "~/site/section-fields";
import type { User } from "~/db/schema.server";
import {
  loadDemoSections,
  loadSiteSections,
  saveSiteSection,
  siteSectionsEdited,
} from "~/site/sections.server";
import { redirectWithFlash } from "~/flash.server";
import { eventExists, getEvent, listEventsNotOver } from "~/events/event.server";
import { formatDate } from "~/kernel/time";

export interface SiteActionData {
  intent: string;
  /** The section whose form was posted. */
  section?: SiteSectionKey;
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
}

const reply = (body: SiteActionData, status: number) => data(body, { status });

/**
 * The section the address names (`?seccion=`, the first one by default) as its form's values,
 * when each section was last saved by an admin, and which still hold the demo's content.
 */
export async function loadSitePage(request: Request, context: AppLoadContext) {
  const asked = new URL(request.url).searchParams.get("seccion");
  const section: SiteSectionKey =
    asked === null ? SITE_SECTION_KEYS[0]! : (asked as SiteSectionKey);
  if (!isSiteSectionKey(section)) notFound("Esa sección del contenido no existe.");
  const [content, edited, demo, choices] = await Promise.all([
    loadSiteSections(context.db),
    siteSectionsEdited(context.db),
    loadDemoSections(context.db),
    eventChoices(context, section),
  ]);
  return data(
    {
      section,
      values: valuesFromSection(section, content[section]),
      edited,
      demo,
      choices,
      timeZone: context.config.siteTimezone,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The events an 'event' field chooses from: those not over, soonest first; and an event the
 * section already links that is over, named as such, so that the linked row shows the event it
 * links rather than a stranger (decision 076).
 */
async function eventChoices(context: AppLoadContext, section: SiteSectionKey) {
  const now = context.now();
  const timeZone = context.config.siteTimezone;
  const rows = await listEventsNotOver(context.db, now);
  const choices = rows.map((e) => ({
    value: e.id,
    label: `${e.nombreEvento} (${formatDate(e.startsAt, timeZone)})`,
  }));
  const listed = new Set(choices.map((c) => c.value));
  for (const id of linkedEventIds(section, (await loadSiteSections(context.db))[section])) {
    if (listed.has(id)) continue;
    const event = await getEvent(context.db, id);
    if (!event) continue;
    listed.add(id);
    choices.push({
      value: id,
      label: `${event.nombreEvento} (terminó el ${formatDate(event.endsAt, timeZone)})`,
    });
  }
  return choices;
}

/** The ids a section's 'event' fields (of the section or of its rows) hold now. */
function linkedEventIds(key: SiteSectionKey, content: object): string[] {
  const spec = sectionSpec(key);
  const data = content as Record<string, unknown>;
  const ids: string[] = [];
  for (const field of spec.fields)
    if (field.kind === "event" && typeof data[field.name] === "string" && data[field.name])
      ids.push(data[field.name] as string);
  for (const list of spec.lists)
    for (const row of (data[list.name] ?? []) as Record<string, unknown>[])
      for (const field of list.fields)
        if (field.kind === "event" && typeof row[field.name] === "string" && row[field.name])
          ids.push(row[field.name] as string);
  return ids;
}

/**
 * 'Guardar' of the section the form names; or, without JavaScript, a row added, moved or removed
 * (nothing saved).
 */
async function saveSection(form: FormData, admin: User, context: AppLoadContext) {
  const key = form.get("section");
  if (!isSiteSectionKey(key))
    return reply({ intent: "save", message: "Sección desconocida." }, 400);
  const answer = (body: Omit<SiteActionData, "intent" | "section">, status: number) =>
    reply({ intent: "save", section: key, ...body }, status);
  const listFields = siteFormListFields(key);
  const rowAction = form.get("rowAction");
  const linkAction = form.get("linkAction");
  if (typeof rowAction === "string" || typeof linkAction === "string") {
    const values: Record<string, unknown> = {};
    for (const [name, value] of form) {
      if (
        typeof value !== "string" ||
        ["intent", "section", "rowAction", "linkAction"].includes(name)
      )
        continue;
      if (listFields.includes(name)) values[name] = [...((values[name] as string[]) ?? []), value];
      else values[name] = value;
    }
    const linksName = sectionSpec(key).links?.name;
    let changed: Record<string, unknown> | null = null;
    if (typeof rowAction === "string") changed = applyRowAction(key, values, rowAction);
    else if (linksName) {
      // The link-list editor's own buttons (postBack): add a row, or remove one of several.
      const links = [...((values[linksName] as string[] | undefined) ?? [])];
      const remove = /^remove-(\d{1,3})$/.exec(String(linkAction));
      if (linkAction === "add") links.push("");
      else if (remove && Number(remove[1]) < links.length && links.length > 1)
        links.splice(Number(remove[1]), 1);
      if (linkAction === "add" || remove) changed = { ...values, [linksName]: links };
    }
    if (!changed) return answer({ message: "Acción desconocida." }, 400);
    return answer({ values: changed, fieldErrors: {} }, 200);
  }
  const result = parseForm(siteFormSchema(key), form, { listFields, ignore: ["section"] });
  if (!result.ok)
    return answer(
      {
        fieldErrors: result.fieldErrors,
        message: result.formError ?? MESSAGES.siteCheckFields,
        values: result.values,
      },
      400,
    );
  // Every 'event' field, of the section or of its rows, names one of the site's events.
  const missing = await unknownEventField(context, key, result.data as Record<string, unknown>);
  if (missing)
    return answer(
      {
        fieldErrors: {
          [missing.key]: `«${missing.label}» debe ser uno de los eventos de la lista.`,
        },
        message: MESSAGES.siteCheckFields,
        values: valuesFromSection(key, result.data as object),
      },
      400,
    );
  try {
    await saveSiteSection(context.db, admin, key, result.data);
  } catch (error) {
    console.error("No se pudo guardar el contenido del sitio:", error);
    return answer(
      { message: MESSAGES.siteSaveFailed, values: valuesFromSection(key, result.data) },
      500,
    );
  }
  return redirectWithFlash(context, `/admin/sitio?seccion=${key}`, "siteSaved");
}

const SITE_ACTIONS: Record<string, typeof saveSection> = {
  save: saveSection,
};

/** Runs the handler the form's `intent` names; an unknown intent is a 400. */
export async function siteAction(form: FormData, admin: User, context: AppLoadContext) {
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(SITE_ACTIONS, intent) ? SITE_ACTIONS[intent] : undefined;
  if (!handler) return reply({ intent, message: "Acción desconocida." }, 400);
  return handler(form, admin, context);
}

/** The first 'event' field of a section (or of a row of its lists) naming no event, if any. */
async function unknownEventField(
  context: AppLoadContext,
  key: SiteSectionKey,
  data: Record<string, unknown>,
): Promise<{ key: string; label: string } | null> {
  const spec = sectionSpec(key);
  const named: { key: string; label: string; id: string }[] = [];
  for (const field of spec.fields)
    if (field.kind === "event" && typeof data[field.name] === "string" && data[field.name])
      named.push({ key: field.name, label: field.label, id: data[field.name] as string });
  for (const list of spec.lists) {
    const rows = (data[list.name] ?? []) as Record<string, unknown>[];
    rows.forEach((row, index) => {
      for (const field of list.fields)
        if (field.kind === "event" && typeof row[field.name] === "string" && row[field.name])
          named.push({
            key: `${list.name}.${index}.${field.name}`,
            label: field.label,
            id: row[field.name] as string,
          });
    });
  }
  for (const one of named) {
    if (!(await eventExists(context.db, one.id))) return one;
  }
  return null;
}
