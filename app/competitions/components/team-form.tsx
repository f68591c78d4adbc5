// The team's form (decision 052): registering it, and the captain's changes. The school field
// suggests the known schools as one types (a datalist: no script needed) and takes a new one.
import { Form, Link, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { TEAM_LIMITS } from "../teams";

export interface TeamFormFields {
  nombre: string;
  colegio: string;
  ciudad: string;
  robot: string;
}

export function TeamForm({
  values,
  errors,
  schools,
  hidden,
  submitLabel,
  cancelTo,
  formRef,
}: {
  values: TeamFormFields;
  errors: Partial<Record<keyof TeamFormFields, string>>;
  schools: readonly string[];
  hidden: Record<string, string>;
  submitLabel: string;
  cancelTo?: string;
  formRef?: React.Ref<HTMLFormElement>;
}) {
  const navigation = useNavigation();
  const field = (name: keyof TeamFormFields) => ({
    id: `equipo-${name}`,
    name,
    error: errors[name],
  });
  return (
    <Form method="post" className="form team-form" ref={formRef}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Field {...field("nombre")} label="Nombre del equipo" required>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={TEAM_LIMITS.nameMax}
            defaultValue={values.nombre}
          />
        )}
      </Field>
      <Field
        {...field("colegio")}
        label="Colegio o universidad"
        required
        hint="Elige uno de la lista mientras escribes, o escribe uno nuevo."
      >
        {(control) => (
          <input
            {...control}
            type="text"
            list="equipo-colegios"
            autoComplete="off"
            maxLength={TEAM_LIMITS.schoolMax}
            defaultValue={values.colegio}
          />
        )}
      </Field>
      <datalist id="equipo-colegios">
        {schools.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <Field {...field("ciudad")} label="Ciudad" required>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={TEAM_LIMITS.cityMax}
            defaultValue={values.ciudad}
          />
        )}
      </Field>
      <Field {...field("robot")} label="Nombre del robot" required>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={TEAM_LIMITS.robotNameMax}
            defaultValue={values.robot}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {submitLabel}
        </button>
        {cancelTo ? (
          <Link className="button button-ghost" to={cancelTo}>
            Cancelar
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
