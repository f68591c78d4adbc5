import { GENEROS, HABILIDADES_MAX } from "~/kernel/limits";
import type { FieldErrors } from "~/kernel/forms";
import { Field } from "~/ui/field";

interface ProfileValues {
  nombreCompleto?: string | null;
  fechaNacimiento?: string | null;
  pais?: string | null;
  ciudad?: string | null;
  genero?: string | null;
  habilidades?: string | null;
}

/**
 * The profile's fields, shared by /aditionaldata (required, as §5 says) and the profile's edit
 * view (no required marks). The server checks the same rules either way.
 */
export function ProfileFields({
  values,
  errors,
  required,
}: {
  values: ProfileValues;
  errors: FieldErrors;
  required: boolean;
}) {
  const field = (name: keyof ProfileValues) => ({
    id: `profile-${name}`,
    name,
    required,
    error: errors[name],
  });
  return (
    <>
      <Field {...field("nombreCompleto")} label="Nombre completo">
        {(control) => (
          <input
            {...control}
            type="text"
            autoComplete="name"
            maxLength={100}
            defaultValue={values.nombreCompleto ?? ""}
          />
        )}
      </Field>
      <Field {...field("fechaNacimiento")} label="Fecha de nacimiento">
        {(control) => (
          <input
            {...control}
            type="date"
            autoComplete="bday"
            min="1900-01-01"
            defaultValue={values.fechaNacimiento ?? ""}
          />
        )}
      </Field>
      <div className="field-row">
        <Field {...field("pais")} label="País">
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="country-name"
              maxLength={100}
              defaultValue={values.pais ?? ""}
            />
          )}
        </Field>
        <Field {...field("ciudad")} label="Ciudad">
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="address-level2"
              maxLength={100}
              defaultValue={values.ciudad ?? ""}
            />
          )}
        </Field>
      </div>
      <Field {...field("genero")} label="Género">
        {(control) => (
          <select {...control} defaultValue={values.genero ?? ""}>
            <option value="">Selecciona...</option>
            {GENEROS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        {...field("habilidades")}
        required={false}
        label="Habilidades (opcional)"
        hint={`Máximo ${HABILIDADES_MAX} caracteres.`}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={HABILIDADES_MAX}
            defaultValue={values.habilidades ?? ""}
          />
        )}
      </Field>
    </>
  );
}
