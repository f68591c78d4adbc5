import { URL_MAX } from "~/kernel/fields";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { FieldErrors } from "~/kernel/forms";
import {
  CAPACITY_MAX,
  EVENT_DEFAULT_DURATION_MS,
  EVENT_DEFAULT_HOURS,
  EVENT_DESCRIPTION_MAX,
  EVENT_NAME_MAX,
  TIPOS_EVENTO,
  tipoEventoLabel,
} from "~/kernel/limits";
import { Field } from "~/ui/field";
import { ImageInput } from "~/uploads/components/image-input";
import { LinkListEditor } from "~/ui/link-list-editor";
import { timeZoneLabel } from "~/kernel/time";
import { useScriptsRunning } from "~/kernel/use-scripts-running";

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A wall-clock date and time as milliseconds on a clock without time zones (UTC), or null. */
function wallClock(fecha: string, hora: string): number | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  const time = /^(\d{2}):(\d{2})/.exec(hora);
  if (!date || !time) return null;
  return Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +time[1]!, +time[2]!);
}

/** The wall-clock date and time `ms` stands for (see wallClock). */
function fromWallClock(ms: number): { fecha: string; hora: string } {
  const iso = new Date(ms).toISOString();
  return { fecha: iso.slice(0, 10), hora: iso.slice(11, 16) };
}

export interface EventFormValues {
  nombreEvento?: string;
  ubicacionEvento?: string;
  tipoEvento?: string;
  enlacesVirtuales?: string[];
  fechaEvento?: string;
  horaEvento?: string;
  /** When it ends; both blank means the start + EVENT_DEFAULT_HOURS. */
  fechaFin?: string;
  horaFin?: string;
  imagenEnlace?: string;
  ubicacionEspecifica?: string | null;
  descripcion?: string;
  /** Seats; blank (or null) means no limit. */
  capacity?: string | number | null;
  /** 'Precio (Bs, opcional)' as typed ('30', '30,50'); blank is free. */
  price?: string;
  /** 'Reserva para pagar (horas)'; blank is 48. */
  holdHours?: string;
  /** The group chat's link, shown only to those with a place (decision 047). */
  enlaceGrupo?: string | null;
}

/**
 * §5 Event form, for publishing and for editing. Event links apply only when the type is not
 * Presencial; without JavaScript they are always shown and the server decides (it drops them for
 * a Presencial event), and '+ Añadir otro enlace' / 'Quitar' post the form back to add or remove
 * a row (the link editor's `postBack`).
 */
export function EventForm({
  mode,
  eventId,
  cancelTo = "/admin",
  values,
  errors,
  timeZone,
  formRef,
  datesFromSessions = false,
}: {
  mode: "publish" | "update";
  eventId?: string;
  /** Where 'Cancelar Edición' goes: the panel, or the event's management page. */
  cancelTo?: string;
  values: EventFormValues;
  errors: FieldErrors;
  timeZone: string;
  formRef?: React.Ref<HTMLFormElement>;
  /** The event has several sessions: they decide its dates, shown here read-only (decision 043). */
  datesFromSessions?: boolean;
}) {
  const navigation = useNavigation();
  const hydrated = useScriptsRunning();
  const [tipo, setTipo] = useState(values.tipoEvento || "Presencial");
  // A new answer from the server (an error, say) brings back the type that was posted.
  useEffect(() => setTipo(values.tipoEvento || "Presencial"), [values.tipoEvento]);

  const field = (name: keyof EventFormValues) => ({
    id: `evento-${name}`,
    name,
    required: true,
    error: errors[name],
  });
  const showLinks = !hydrated || tipo !== "Presencial";

  // With JavaScript, the end follows the start, keeping the event's length (2 hours for a new
  // one), until the admin changes the end; without it, a blank end is the server's start + 2 h.
  const fechaFinRef = useRef<HTMLInputElement>(null);
  const horaFinRef = useRef<HTMLInputElement>(null);
  const endTouched = useRef(false);
  const initialStart = wallClock(values.fechaEvento ?? "", values.horaEvento ?? "");
  const initialEnd = wallClock(values.fechaFin ?? "", values.horaFin ?? "");
  const length =
    initialStart !== null && initialEnd !== null && initialEnd > initialStart
      ? initialEnd - initialStart
      : EVENT_DEFAULT_DURATION_MS;
  const followStart = (form: HTMLFormElement | null) => {
    if (endTouched.current || !form || !fechaFinRef.current || !horaFinRef.current) return;
    const start = wallClock(
      (form.elements.namedItem("fechaEvento") as HTMLInputElement | null)?.value ?? "",
      (form.elements.namedItem("horaEvento") as HTMLInputElement | null)?.value ?? "",
    );
    if (start === null) return;
    const end = fromWallClock(start + length);
    fechaFinRef.current.value = end.fecha;
    horaFinRef.current.value = end.hora;
  };
  const submitting = navigation.state === "submitting";
  return (
    <Form method="post" noValidate className="form" ref={formRef} preventScrollReset>
      <input type="hidden" name="intent" value={mode} />
      {/* Enter in a field submits with the form's first submit button: this one, not '+ Añadir otro enlace'. */}
      <button type="submit" hidden tabIndex={-1} />
      {eventId ? <input type="hidden" name="eventId" value={eventId} /> : null}
      <Field {...field("nombreEvento")} label="Nombre del evento">
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={EVENT_NAME_MAX}
            defaultValue={values.nombreEvento ?? ""}
          />
        )}
      </Field>
      <div className="field-row">
        <Field {...field("ubicacionEvento")} label="Ubicación (país, ciudad)">
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={EVENT_NAME_MAX}
              placeholder="Bolivia, La Paz"
              defaultValue={values.ubicacionEvento ?? ""}
            />
          )}
        </Field>
        <Field
          {...field("ubicacionEspecifica")}
          required={false}
          label="Ubicación específica (opcional)"
        >
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={EVENT_NAME_MAX}
              defaultValue={values.ubicacionEspecifica ?? ""}
            />
          )}
        </Field>
      </div>
      <Field {...field("tipoEvento")} label="Tipo de evento">
        {(control) => (
          <select {...control} value={tipo} onChange={(e) => setTipo(e.target.value)}>
            {TIPOS_EVENTO.map((t) => (
              <option key={t} value={t}>
                {tipoEventoLabel(t)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {/* Hidden rather than removed for a Presencial event, so that links typed stay if the type changes back. */}
      <div hidden={!showLinks}>
        <LinkListEditor
          form="evento"
          name="enlacesVirtuales"
          label="Enlace"
          legend={<>Enlaces del evento{hydrated ? <span aria-hidden="true"> *</span> : null}</>}
          hint={
            hydrated
              ? "Al menos un enlace (Meet, Zoom, transmisión…)."
              : "Solo para eventos virtuales o híbridos (al menos uno); se ignoran en un evento presencial."
          }
          values={values.enlacesVirtuales ?? []}
          error={errors.enlacesVirtuales}
          required
          addLabel="+ Añadir otro enlace"
          postBack
        />
      </div>
      {datesFromSessions ? (
        <p className="field-hint" id="evento-fechas-sesiones">
          Este evento tiene varias sesiones: su inicio y su fin son los de la primera y la última, y
          se cambian en «Sesiones».
        </p>
      ) : null}
      <div className="field-row">
        <Field {...field("fechaEvento")} label="Fecha">
          {(control) => (
            <input
              {...control}
              type="date"
              defaultValue={values.fechaEvento ?? ""}
              readOnly={datesFromSessions}
              onChange={(e) => followStart(e.currentTarget.form)}
            />
          )}
        </Field>
        <Field
          {...field("horaEvento")}
          label="Hora"
          hint={`${capitalized(timeZoneLabel(timeZone))}.`}
        >
          {(control) => (
            <input
              {...control}
              type="time"
              defaultValue={values.horaEvento ?? ""}
              readOnly={datesFromSessions}
              onChange={(e) => followStart(e.currentTarget.form)}
            />
          )}
        </Field>
      </div>
      <div className="field-row">
        <Field
          {...field("fechaFin")}
          required={false}
          label="Fecha de fin"
          hint={`Vacía: ${EVENT_DEFAULT_HOURS} horas después del inicio.`}
        >
          {(control) => (
            <input
              {...control}
              ref={fechaFinRef}
              type="date"
              defaultValue={values.fechaFin ?? ""}
              readOnly={datesFromSessions}
              onChange={() => (endTouched.current = true)}
            />
          )}
        </Field>
        <Field {...field("horaFin")} required={false} label="Hora de fin">
          {(control) => (
            <input
              {...control}
              ref={horaFinRef}
              type="time"
              defaultValue={values.horaFin ?? ""}
              readOnly={datesFromSessions}
              onChange={() => (endTouched.current = true)}
            />
          )}
        </Field>
      </div>
      <Field
        {...field("capacity")}
        required={false}
        label="Cupo (plazas, opcional)"
        hint="Vacío: sin límite. Con el cupo lleno, quien se une queda en la lista de espera."
      >
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={CAPACITY_MAX}
            step={1}
            defaultValue={values.capacity ?? ""}
          />
        )}
      </Field>
      <Field
        {...field("price")}
        required={false}
        label="Precio (Bs, opcional)"
        hint="Vacío: gratis. Escríbelo como 30 o 30,50; quien se inscribe paga por QR (Tesorería)."
      >
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            defaultValue={values.price ?? ""}
          />
        )}
      </Field>
      <Field
        {...field("holdHours")}
        required={false}
        label="Reserva para pagar (horas)"
        hint="Si tiene precio: cuánto tiempo se guarda la plaza de quien se inscribe mientras paga. Vacío: 48."
      >
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={720}
            step={1}
            defaultValue={values.holdHours ?? ""}
          />
        )}
      </Field>
      <ImageInput
        id="evento-imagenEnlace"
        name="imagenEnlace"
        label="Enlace de la imagen"
        required
        value={values.imagenEnlace}
        error={errors.imagenEnlace}
      />
      <Field {...field("descripcion")} label="Descripción">
        {(control) => (
          <textarea
            {...control}
            rows={3}
            maxLength={EVENT_DESCRIPTION_MAX}
            defaultValue={values.descripcion ?? ""}
          />
        )}
      </Field>
      <Field
        {...field("enlaceGrupo")}
        required={false}
        label="Enlace del grupo (opcional)"
        hint="El grupo de WhatsApp (https://chat.whatsapp.com/…) u otro. Solo lo ven quienes tienen un lugar: en la página del evento y en su correo de confirmación."
      >
        {(control) => (
          <input
            {...control}
            type="url"
            inputMode="url"
            maxLength={URL_MAX}
            placeholder="https://chat.whatsapp.com/…"
            defaultValue={values.enlaceGrupo ?? ""}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" className="button" disabled={submitting}>
          {mode === "publish" ? "Publicar Evento" : "Actualizar Evento"}
        </button>
        {mode === "update" ? (
          <Link to={cancelTo} className="button button-ghost">
            Cancelar Edición
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
