// /admin/eventos/:id/categorias — a competition's categories (decision 051): its
// organisers and admins add, change, reorder and delete them. Plain forms: all of it works without
// JavaScript.
import { Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import {
  COACH_BY_DEFAULT,
  EMPTY_CATEGORY,
  FORMATS,
  LEVELS,
  type CategoryFormValues,
} from "~/competitions/categories";
import { CategoryCard } from "~/competitions/components/category-list";
import { requireEventMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { BackLink } from "~/ui/back-link";
import { Field } from "~/ui/field";
import type { Route } from "./+types/competition";
import { categoryEditorAction, loadCategoryEditor, type CategoryReply } from "./competition.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireEventMay(request, context, "event.competition", params.eventId);
  return loadCategoryEditor(request, params.eventId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireEventMay(request, context, "event.competition", params.eventId);
  return categoryEditorAction(params.eventId, await readForm(request), user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: loaderData
        ? `Categorías: ${loaderData.event.nombreEvento} — Ayllu`
        : "Categorías de la competencia — Ayllu",
    },
    { name: "robots", content: "noindex" },
  ];
}

type Errors = Partial<Record<keyof CategoryFormValues, string>>;

/** A whole number of the form (team size, limits, capacity): at least 1. */
function NumberField({
  value,
  max,
  ...props
}: {
  id: string;
  name: string;
  label: string;
  error: string | undefined;
  hint?: string;
  required?: boolean;
  max?: number;
  value: string;
}) {
  return (
    <Field {...props}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          defaultValue={value}
        />
      )}
    </Field>
  );
}

function CategoryForm({
  values,
  errors,
  categoryId,
  cancelTo,
  formRef,
}: {
  values: CategoryFormValues;
  errors: Errors;
  categoryId: string | null;
  cancelTo: string | null;
  formRef: React.Ref<HTMLFormElement>;
}) {
  const navigation = useNavigation();
  const prefix = categoryId ? "editar" : "nueva";
  const field = (name: keyof CategoryFormValues) => ({
    id: `${prefix}-${name}`,
    name,
    error: errors[name],
  });
  return (
    <Form method="post" className="category-form" ref={formRef} preventScrollReset>
      <input type="hidden" name="intent" value={categoryId ? "updateCategory" : "addCategory"} />
      {categoryId ? <input type="hidden" name="categoryId" value={categoryId} /> : null}
      <Field {...field("nombre")} label="Nombre" required>
        {(control) => (
          <input {...control} type="text" maxLength={100} defaultValue={values.nombre} />
        )}
      </Field>
      <div className="field-row">
        <Field {...field("nivel")} label="Nivel" required>
          {(control) => (
            <select {...control} defaultValue={values.nivel}>
              <option value="">Elige el nivel</option>
              {Object.entries(LEVELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field {...field("formato")} label="Cómo se juzga" required>
          {(control) => (
            <select {...control} defaultValue={values.formato}>
              <option value="">Elige el formato</option>
              {Object.entries(FORMATS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="field-row">
        <NumberField
          {...field("minimo")}
          label="Mínimo de integrantes"
          required
          max={10}
          value={values.minimo}
        />
        <NumberField
          {...field("maximo")}
          label="Máximo de integrantes"
          required
          max={10}
          value={values.maximo}
        />
      </div>
      <Field
        {...field("entrenador")}
        label="Entrenador adulto"
        hint={`Según el nivel: obligatorio en ${COACH_BY_DEFAULT.map((l) => LEVELS[l].toLowerCase()).join(" y ")}.`}
      >
        {(control) => (
          <select {...control} defaultValue={values.entrenador}>
            <option value="">Según el nivel</option>
            <option value="si">Obligatorio</option>
            <option value="no">No obligatorio</option>
          </select>
        )}
      </Field>
      <Field {...field("reglas")} label="Reglas del robot">
        {(control) => (
          <textarea {...control} rows={4} maxLength={5000} defaultValue={values.reglas} />
        )}
      </Field>
      <div className="field-row">
        <NumberField
          {...field("peso")}
          label="Peso máximo (g)"
          hint="Opcional."
          value={values.peso}
        />
        <NumberField
          {...field("tamano")}
          label="Tamaño máximo (cm)"
          hint="Opcional."
          value={values.tamano}
        />
      </div>
      <div className="field-row">
        <NumberField
          {...field("cupo")}
          label="Cupo (equipos)"
          hint="Vacío: sin límite."
          value={values.cupo}
        />
        <Field {...field("cuota")} label="Cuota por equipo (Bs)" hint="Vacía o 0: gratis.">
          {(control) => (
            <input {...control} type="text" inputMode="decimal" defaultValue={values.cuota} />
          )}
        </Field>
      </div>
      <div className="field-row">
        <Field {...field("fechaCierre")} label="Cierre de inscripciones" required>
          {(control) => <input {...control} type="date" defaultValue={values.fechaCierre} />}
        </Field>
        <Field {...field("horaCierre")} label="Hora de cierre" required>
          {(control) => <input {...control} type="time" defaultValue={values.horaCierre} />}
        </Field>
      </div>
      <div className="field-row">
        <Field
          {...field("fechaInicio")}
          label="Empieza la categoría"
          hint="La inspección de robots cierra entonces. Vacía: al inicio del evento."
        >
          {(control) => <input {...control} type="date" defaultValue={values.fechaInicio} />}
        </Field>
        <Field {...field("horaInicio")} label="Hora de inicio">
          {(control) => <input {...control} type="time" defaultValue={values.horaInicio} />}
        </Field>
      </div>
      <div className="form-actions">
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {categoryId ? "Guardar categoría" : "Agregar categoría"}
        </button>
        {cancelTo ? (
          <Link className="button button-ghost" to={cancelTo} preventScrollReset>
            Cancelar
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export default function CategoryEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { event, categories, editing, deleting, timeZone } = loaderData;
  const base = `/admin/eventos/${event.id}/categorias`;
  const reply = (actionData ?? null) as CategoryReply | null;
  const formReply =
    reply && (reply.intent === "addCategory" || reply.intent === "updateCategory") && reply.values
      ? reply
      : null;
  const fieldErrors = formReply?.fieldErrors ?? {};
  const formRef = useFocusFirstError<HTMLFormElement>(
    Object.keys(fieldErrors).length > 0 ? formReply : null,
  );
  const editingId =
    formReply?.intent === "updateCategory" ? (formReply.categoryId ?? null) : (editing?.id ?? null);
  const formValues = formReply?.values ?? editing?.values ?? EMPTY_CATEGORY;
  const listed = reply && !formReply ? reply.message : undefined;
  const formMessage =
    formReply && Object.keys(fieldErrors).length === 0 ? formReply.message : undefined;
  return (
    <div className="page category-editor">
      <BackLink to={`/admin/eventos/${event.id}`} label="Volver a gestionar el evento" />
      <h1>Categorías: {event.nombreEvento}</h1>
      <p className="muted">
        Con al menos una categoría, el evento es una competencia: su página muestra las categorías
        con sus reglas, cuotas, cierres y lugares.{" "}
        <Link to={`/detalles/${event.id}#categorias`}>Ver la página del evento</Link>
      </p>

      <section className="card" aria-labelledby="categorias-title">
        <h2 id="categorias-title">Categorías ({categories.length})</h2>
        {listed ? (
          <p className="field-error" role="alert">
            {listed}
          </p>
        ) : null}
        {categories.length === 0 ? (
          <p>Aún no hay categorías.</p>
        ) : (
          <ol className="plain-list category-editor-list">
            {categories.map((c, i) => (
              <li key={c.id}>
                <CategoryCard category={c} timeZone={timeZone}>
                  <div className="button-row category-actions">
                    {/* A page of its own (its service worker): a whole page load. */}
                    <a
                      className="button button-small"
                      href={`/admin/eventos/${event.id}/jurado/${c.id}`}
                      aria-label={`Anotar resultados de ${c.name}`}
                    >
                      Anotar resultados
                    </a>
                    <Link
                      className="button button-small button-secondary"
                      to={`${base}?editar=${c.id}#categoria-form-title`}
                      aria-label={`Editar ${c.name}`}
                    >
                      Editar
                    </Link>
                    <Link
                      className="button button-small button-secondary"
                      to={`${base}/${c.id}/resultados`}
                      aria-label={`Organizar resultados de ${c.name}`}
                    >
                      Organizar resultados
                    </Link>
                    {(["subir", "bajar"] as const).map((direction) =>
                      (direction === "subir" ? i > 0 : i < categories.length - 1) ? (
                        <Form method="post" key={direction} preventScrollReset>
                          <input type="hidden" name="intent" value="moveCategory" />
                          <input type="hidden" name="categoryId" value={c.id} />
                          <input type="hidden" name="direccion" value={direction} />
                          <button
                            type="submit"
                            className="button button-small button-ghost"
                            aria-label={`${direction === "subir" ? "Subir" : "Bajar"} ${c.name}`}
                          >
                            {direction === "subir" ? "Subir" : "Bajar"}
                          </button>
                        </Form>
                      ) : null,
                    )}
                    <Link
                      className="button button-small button-danger"
                      to={`${base}?eliminar=${c.id}#eliminar-title`}
                      aria-label={`Eliminar ${c.name}`}
                    >
                      Eliminar
                    </Link>
                  </div>
                  {deleting?.id === c.id ? (
                    <Form method="post" className="category-delete" preventScrollReset>
                      <p id="eliminar-title">
                        ¿Eliminar la categoría «{deleting.name}»? No se puede deshacer.
                      </p>
                      <input type="hidden" name="intent" value="deleteCategory" />
                      <input type="hidden" name="categoryId" value={c.id} />
                      <div className="button-row">
                        <button type="submit" className="button button-danger">
                          Sí, eliminar
                        </button>
                        <Link className="button button-ghost" to={base} preventScrollReset>
                          Cancelar
                        </Link>
                      </div>
                    </Form>
                  ) : null}
                </CategoryCard>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="card" aria-labelledby="categoria-form-title">
        <h2 id="categoria-form-title">{editingId ? "Editar categoría" : "Nueva categoría"}</h2>
        {formMessage ? (
          <p className="field-error" role="alert">
            {formMessage}
          </p>
        ) : null}
        <CategoryForm
          // A new form after each category added: the last one's values do not stay in it.
          key={editingId ?? `nueva-${categories.length}`}
          values={formValues}
          errors={fieldErrors}
          categoryId={editingId}
          cancelTo={editingId ? base : null}
          formRef={formRef}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
