// A competition's categories on the server (/admin/eventos/:id/categorias, decision 051): what the
// editor shows, and its posts dispatched by `intent` to the model, which decides every change.
import { data, type AppLoadContext } from "react-router";
import {
  CATEGORY_FIELDS,
  type CategoryFormValues,
  EMPTY_CATEGORY,
} from "~/competitions/categories";
import {
  addCategory,
  CategoryError,
  categoryFormValues,
  deleteCategory,
  listCategoriesWithTeams,
  moveCategory,
  publicCategories,
  updateCategory,
  type CategoryFields,
} from "~/competitions/categories.server";
import { getEvent } from "~/events/event.server";
import { redirectWithFlash } from "~/flash.server";
import type { SessionUser } from "~/guards.server";
import { fieldErrorOf, Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { MESSAGES } from "~/messages";

export async function loadCategoryEditor(
  request: Request,
  eventId: string,
  context: AppLoadContext,
) {
  const event = await getEvent(context.db, eventId);
  if (!event) notFound(MESSAGES.eventNotFound);
  const zone = context.config.siteTimezone;
  const params = new URL(request.url).searchParams;
  const categories = await listCategoriesWithTeams(context.db, event.id);
  const editing = categories.find((c) => c.id === params.get("editar")) ?? null;
  const deleting = categories.find((c) => c.id === params.get("eliminar")) ?? null;
  return data(
    {
      timeZone: zone,
      event: { id: event.id, nombreEvento: event.nombreEvento },
      categories: publicCategories(categories, context.now()),
      editing: editing ? { id: editing.id, values: categoryFormValues(editing, zone) } : null,
      deleting: deleting ? { id: deleting.id, name: deleting.name } : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A field sent once; null when it came several times or as a file (a malformed post). */
function single(form: FormData, name: string) {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : null;
}

function categoryFields(form: FormData): CategoryFields {
  return Object.fromEntries(CATEGORY_FIELDS.map((name) => [name, single(form, name)]));
}

/** What a refused form had, to show it again as typed. */
function typedValues(form: FormData): CategoryFormValues {
  const out = { ...EMPTY_CATEGORY };
  for (const name of CATEGORY_FIELDS) {
    const value = form.get(name);
    out[name] = typeof value === "string" ? value : "";
  }
  return out;
}

export type CategoryReply = {
  intent: string;
  message: string;
  categoryId?: string;
  fieldErrors?: Partial<Record<keyof CategoryFormValues, string>>;
  values?: CategoryFormValues;
};

export async function categoryEditorAction(
  eventId: string,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const intent = String(single(form, "intent") ?? "");
  const here = `/admin/eventos/${eventId}/categorias`;
  const zone = context.config.siteTimezone;
  const categoryId = single(form, "categoryId");
  try {
    if (intent === "addCategory") {
      await addCategory(context.db, user, eventId, categoryFields(form), zone);
      return redirectWithFlash(context, `${here}#categorias-title`, "categoryAdded");
    }
    if (intent === "updateCategory") {
      await updateCategory(context.db, user, eventId, categoryId, categoryFields(form), zone);
      return redirectWithFlash(context, `${here}#categorias-title`, "categorySaved");
    }
    if (intent === "moveCategory") {
      await moveCategory(context.db, user, eventId, categoryId, single(form, "direccion"));
      return redirectWithFlash(context, `${here}#categorias-title`, "categoryMoved");
    }
    if (intent === "deleteCategory") {
      await deleteCategory(context.db, user, eventId, categoryId);
      return redirectWithFlash(context, `${here}#categorias-title`, "categoryDeleted");
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    // An unknown event is the page not found; an unknown category is said next to the list.
    if (error.status === 404 && !(error instanceof CategoryError)) notFound(error.message);
    const withForm = intent === "addCategory" || intent === "updateCategory";
    return data<CategoryReply>(
      {
        intent,
        message: error.message,
        categoryId: typeof categoryId === "string" ? categoryId : undefined,
        fieldErrors: fieldErrorOf(error),
        values: withForm ? typedValues(form) : undefined,
      },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
  return data<CategoryReply>(
    { intent, message: MESSAGES.unknownAction },
    { status: 400, headers: { "Cache-Control": "no-store" } },
  );
}
