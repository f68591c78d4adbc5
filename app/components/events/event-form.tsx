import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { FieldErrors } from "~/lib/forms";
import { EVENT_DESCRIPTION_MAX, EVENT_NAME_MAX, TIPOS_EVENTO } from "~/lib/limits";
import { FieldError } from "~/components/field-error";
import { timeZoneLabel } from "~/lib/time";

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface EventFormValues {
  nombreEvento?: string;
  ubicacionEvento?: string;
  tipoEvento?: string;
  enlacesVirtuales?: string[];
  fechaEvento?: string;
  horaEvento?: string;
  imagenEnlace?: string;
  ubicacionEspecifica?: string | null;
  descripcion?: string;
}

/**
 * §5 Event form, for publishing and for editing. Event links apply only when the type is not
 * Presencial; without JavaScript they are always shown and the server decides (it drops them for
 * a Presencial event), and '+ Añadir otro enlace' / 'Quitar' post the form back to add or remove
 * a row.
 */
export function EventForm({
  mode,
  eventId,
  values,
  errors,
  timeZone,
  formRef,
}: {
  mode: "publish" | "update";
  eventId?: string;
  values: EventFormValues;
  errors: FieldErrors;
  timeZone: string;
  formRef?: React.Ref<HTMLFormElement>;
}) {
  const navigation = useNavigation();
  const [hydrated, setHydrated] = useState(false);
  const [tipo, setTipo] = useState(values.tipoEvento || "Presencial");
  const initialLinks =
    values.enlacesVirtuales && values.enlacesVirtuales.length > 0 ? values.enlacesVirtuales : [""];
  const [links, setLinks] = useState(() => initialLinks.map((value, i) => ({ key: i, value })));
  const [nextKey, setNextKey] = useState(initialLinks.length);
  useEffect(() => setHydrated(true), []);
  // A new answer from the server (an error, or a row added without JavaScript) replaces the rows.
  const linksSignature = JSON.stringify(values.enlacesVirtuales ?? []);
  useEffect(() => {
    const list =
      values.enlacesVirtuales && values.enlacesVirtuales.length > 0
        ? values.enlacesVirtuales
        : [""];
    setLinks(list.map((value, i) => ({ key: i, value })));
    setNextKey(list.length);
    setTipo(values.tipoEvento || "Presencial");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linksSignature, values.tipoEvento]);

  const field = (name: string) => ({
    id: `evento-${name}`,
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `evento-${name}-error` : undefined,
  });
  const showLinks = !hydrated || tipo !== "Presencial";
  const submitting = navigation.state === "submitting";
  return (
    <Form method="post" noValidate className="form" ref={formRef} preventScrollReset>
      <input type="hidden" name="intent" value={mode} />
      {/* Enter in a field submits with the form's first submit button: this one, not '+ Añadir otro enlace'. */}
      <button type="submit" hidden tabIndex={-1} />
      {eventId ? <input type="hidden" name="eventId" value={eventId} /> : null}
      <div className="field">
        <label htmlFor="evento-nombreEvento">
          Nombre del evento<span aria-hidden="true"> *</span>
        </label>
        <input
          {...field("nombreEvento")}
          type="text"
          required
          maxLength={EVENT_NAME_MAX}
          defaultValue={values.nombreEvento ?? ""}
        />
        <FieldError id="evento-nombreEvento-error" message={errors.nombreEvento} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="evento-ubicacionEvento">
            Ubicación (país, ciudad)<span aria-hidden="true"> *</span>
          </label>
          <input
            {...field("ubicacionEvento")}
            type="text"
            required
            maxLength={EVENT_NAME_MAX}
            placeholder="Bolivia, La Paz"
            defaultValue={values.ubicacionEvento ?? ""}
          />
          <FieldError id="evento-ubicacionEvento-error" message={errors.ubicacionEvento} />
        </div>
        <div className="field">
          <label htmlFor="evento-ubicacionEspecifica">Ubicación específica (opcional)</label>
          <input
            {...field("ubicacionEspecifica")}
            type="text"
            maxLength={EVENT_NAME_MAX}
            defaultValue={values.ubicacionEspecifica ?? ""}
          />
          <FieldError id="evento-ubicacionEspecifica-error" message={errors.ubicacionEspecifica} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="evento-tipoEvento">
          Tipo de evento<span aria-hidden="true"> *</span>
        </label>
        <select
          {...field("tipoEvento")}
          required
          value={tipo}
          onChange={(e) => setTipo(e.target.value)}
        >
          {TIPOS_EVENTO.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <FieldError id="evento-tipoEvento-error" message={errors.tipoEvento} />
      </div>
      {showLinks ? (
        <fieldset
          className="link-fieldset"
          aria-describedby={
            errors.enlacesVirtuales ? "evento-enlacesVirtuales-error" : "evento-enlaces-hint"
          }
        >
          <legend>Enlaces del evento{hydrated ? <span aria-hidden="true"> *</span> : null}</legend>
          <p className="field-hint" id="evento-enlaces-hint">
            {hydrated
              ? "Al menos un enlace (Meet, Zoom, transmisión…)."
              : "Solo para eventos Virtual o Hibrido (al menos uno); se ignoran en un evento Presencial."}
          </p>
          {links.map((link, index) => (
            <div className="link-row" key={link.key}>
              <label htmlFor={`evento-enlace-${link.key}`} className="visually-hidden">
                Enlace {index + 1}
              </label>
              <input
                id={`evento-enlace-${link.key}`}
                name="enlacesVirtuales"
                type="url"
                inputMode="url"
                placeholder="https://"
                required={hydrated}
                aria-invalid={errors.enlacesVirtuales ? true : undefined}
                value={link.value}
                onChange={(e) => {
                  const value = e.target.value;
                  setLinks((all) => all.map((l) => (l.key === link.key ? { ...l, value } : l)));
                }}
              />
              {links.length > 1 ? (
                <button
                  type="submit"
                  name="linkAction"
                  value={`remove-${index}`}
                  className="button button-ghost button-small"
                  aria-label={`Quitar enlace ${index + 1}`}
                  onClick={(e) => {
                    e.preventDefault();
                    setLinks((all) =>
                      all.length > 1 ? all.filter((l) => l.key !== link.key) : all,
                    );
                  }}
                >
                  Quitar
                </button>
              ) : null}
            </div>
          ))}
          <FieldError id="evento-enlacesVirtuales-error" message={errors.enlacesVirtuales} />
          <button
            type="submit"
            name="linkAction"
            value="add"
            className="button button-ghost button-small"
            onClick={(e) => {
              e.preventDefault();
              setLinks((all) => [...all, { key: nextKey, value: "" }]);
              setNextKey((k) => k + 1);
            }}
          >
            + Añadir otro enlace
          </button>
        </fieldset>
      ) : null}
      <div className="field-row">
        <div className="field">
          <label htmlFor="evento-fechaEvento">
            Fecha<span aria-hidden="true"> *</span>
          </label>
          <input
            {...field("fechaEvento")}
            type="date"
            required
            defaultValue={values.fechaEvento ?? ""}
          />
          <FieldError id="evento-fechaEvento-error" message={errors.fechaEvento} />
        </div>
        <div className="field">
          <label htmlFor="evento-horaEvento">
            Hora<span aria-hidden="true"> *</span>
          </label>
          <input
            {...field("horaEvento")}
            type="time"
            required
            defaultValue={values.horaEvento ?? ""}
            aria-describedby={errors.horaEvento ? "evento-horaEvento-error" : "evento-hora-hint"}
          />
          <p className="field-hint" id="evento-hora-hint">
            {capitalized(timeZoneLabel(timeZone))}.
          </p>
          <FieldError id="evento-horaEvento-error" message={errors.horaEvento} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="evento-imagenEnlace">
          Enlace de la imagen<span aria-hidden="true"> *</span>
        </label>
        <input
          {...field("imagenEnlace")}
          type="url"
          inputMode="url"
          required
          placeholder="https://"
          defaultValue={values.imagenEnlace ?? ""}
        />
        <FieldError id="evento-imagenEnlace-error" message={errors.imagenEnlace} />
      </div>
      <div className="field">
        <label htmlFor="evento-descripcion">
          Descripción<span aria-hidden="true"> *</span>
        </label>
        <textarea
          {...field("descripcion")}
          rows={3}
          required
          maxLength={EVENT_DESCRIPTION_MAX}
          defaultValue={values.descripcion ?? ""}
        />
        <FieldError id="evento-descripcion-error" message={errors.descripcion} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button" disabled={submitting}>
          {mode === "publish" ? "Publicar Evento" : "Actualizar Evento"}
        </button>
        {mode === "update" ? (
          <Link to="/admin" className="button button-ghost">
            Cancelar Edición
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
