import { GENEROS, HABILIDADES_MAX } from "~/lib/limits";
import type { FieldErrors } from "~/lib/forms";
import { FieldError } from "./field-error";

export interface ProfileValues {
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
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `profile-${name}-error` : undefined,
  });
  const mark = required ? <span aria-hidden="true"> *</span> : null;
  return (
    <>
      <div className="field">
        <label htmlFor="profile-nombreCompleto">Nombre completo{mark}</label>
        <input
          {...field("nombreCompleto")}
          type="text"
          autoComplete="name"
          required={required}
          maxLength={100}
          defaultValue={values.nombreCompleto ?? ""}
        />
        <FieldError id="profile-nombreCompleto-error" message={errors.nombreCompleto} />
      </div>
      <div className="field">
        <label htmlFor="profile-fechaNacimiento">Fecha de nacimiento{mark}</label>
        <input
          {...field("fechaNacimiento")}
          type="date"
          autoComplete="bday"
          required={required}
          min="1900-01-01"
          defaultValue={values.fechaNacimiento ?? ""}
        />
        <FieldError id="profile-fechaNacimiento-error" message={errors.fechaNacimiento} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="profile-pais">País{mark}</label>
          <input
            {...field("pais")}
            type="text"
            autoComplete="country-name"
            required={required}
            maxLength={100}
            defaultValue={values.pais ?? ""}
          />
          <FieldError id="profile-pais-error" message={errors.pais} />
        </div>
        <div className="field">
          <label htmlFor="profile-ciudad">Ciudad{mark}</label>
          <input
            {...field("ciudad")}
            type="text"
            autoComplete="address-level2"
            required={required}
            maxLength={100}
            defaultValue={values.ciudad ?? ""}
          />
          <FieldError id="profile-ciudad-error" message={errors.ciudad} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="profile-genero">Género{mark}</label>
        <select {...field("genero")} required={required} defaultValue={values.genero ?? ""}>
          <option value="">Selecciona...</option>
          {GENEROS.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
        <FieldError id="profile-genero-error" message={errors.genero} />
      </div>
      <div className="field">
        <label htmlFor="profile-habilidades">Habilidades (opcional)</label>
        <input
          {...field("habilidades")}
          type="text"
          maxLength={HABILIDADES_MAX}
          defaultValue={values.habilidades ?? ""}
          aria-describedby={
            errors.habilidades ? "profile-habilidades-error" : "profile-habilidades-hint"
          }
        />
        <p className="field-hint" id="profile-habilidades-hint">
          Máximo {HABILIDADES_MAX} caracteres.
        </p>
        <FieldError id="profile-habilidades-error" message={errors.habilidades} />
      </div>
    </>
  );
}
