// /admin/eventos/:id/:seccion — one event's management page, for its organisers and admins
// (decision 038), in sections with their own addresses (decision 079): the event's data, its
// sessions, gallery, door hours and links, certificate and staff; beside them the day's pages
// (participants and messages, check-in, categories, teams, inspection). /admin stays for admins.
import { Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { EventForm } from "~/events/components/event-form";
import { SessionEditor, type EventSessionReply } from "~/events/components/session-editor";
import { GalleryManager } from "~/events/components/gallery-dialog";
import { requireEventMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { formatDateTimeRange } from "~/kernel/time";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { EventStaff } from "~/members/components/event-staff";
import { StaffLinks, type NewStaffLink } from "~/members/components/staff-links";
import { AlertDialog } from "~/ui/dialog";
import { Field } from "~/ui/field";
import { eventManagementAction, loadEventManagement } from "./event-manage.server";
import type { Route } from "./+types/event-manage";
import { BackLink } from "~/ui/back-link";
import { SectionTabs } from "~/ui/section-tabs";
import {
  EVENT_DAY_PAGES,
  EVENT_SECTIONS,
  sectionHref,
  sectionOf,
  type EventSection,
} from "./event-sections";
import { notFound } from "~/kernel/not-found";
import { MESSAGES } from "~/messages";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireEventMay(request, context, "event.manage", params.eventId);
  return loadEventManagement(request, params.eventId, params.seccion, user, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireEventMay(request, context, "event.manage", params.eventId);
  const form = await readForm(request);
  // A post to an address that names no section goes nowhere, as its page does.
  if (!sectionOf(params.seccion)) notFound(MESSAGES.eventNotFound);
  return eventManagementAction(params.eventId, form, user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: loaderData
        ? `Gestionar: ${loaderData.event.nombreEvento} — ${EVENT_SECTIONS[loaderData.section].label} — Ayllu`
        : "Gestionar evento — Ayllu",
    },
    { name: "robots", content: "noindex" },
  ];
}

export default function EventManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { event, values, timeZone, eventStaff, gallery, removingImage, panel, section } =
    loaderData;
  const navigation = useNavigation();
  const params = new URLSearchParams(loaderData.search);
  const base = `/admin/eventos/${event.id}`;
  const here = sectionHref(event.id, section);
  const formAction = actionData && actionData.intent === "update" ? actionData : null;
  const galleryAction = actionData?.intent === "galleryAdd" ? actionData : null;
  const formRef = useFocusFirstError<HTMLFormElement>(
    formAction?.fieldErrors && Object.keys(formAction.fieldErrors).length > 0 ? formAction : null,
  );
  const staffError =
    actionData && (actionData.intent === "grantRole" || actionData.intent === "revokeRole")
      ? actionData.message
      : undefined;
  const doorError = actionData?.intent === "doorWindow" ? actionData.message : undefined;
  const shareError = actionData?.intent === "certificateShare" ? actionData.message : undefined;
  const sessionReply =
    actionData && EVENT_SESSION_INTENTS.includes(actionData.intent)
      ? (actionData as EventSessionReply)
      : null;
  const linkAction =
    actionData?.intent === "createStaffLink" || actionData?.intent === "revokeStaffLink"
      ? actionData
      : null;
  const linkErrors = linkAction?.message
    ? linkAction.fieldErrors && Object.keys(linkAction.fieldErrors).length > 0
      ? (linkAction.fieldErrors as { nombre?: string; vence?: string })
      : { other: linkAction.message }
    : undefined;
  return (
    <div className="page event-manage">
      {panel ? (
        <BackLink to="/admin" label="Volver al panel" />
      ) : (
        <BackLink to="/profile#mis-roles" label="Mis eventos a cargo" />
      )}
      <h1>Gestionar: {event.nombreEvento}</h1>
      <p className="muted">
        <time dateTime={event.startsAt}>
          {formatDateTimeRange(event.startsAt, event.endsAt, timeZone)}
        </time>
      </p>
      <p className="button-row event-manage-actions">
        <Link reloadDocument className="button" to={`${base}/registro`}>
          Registro de entrada
        </Link>
        <Link className="button button-ghost" to={`/detalles/${event.id}`}>
          Ver página del evento
        </Link>
      </p>
      <div className="event-manage-layout">
        <SectionTabs
          label="Gestionar el evento"
          current={section}
          className="event-manage-menu"
          groups={[
            {
              heading: "Gestionar",
              tabs: (Object.keys(EVENT_SECTIONS) as EventSection[]).map((key) => ({
                key,
                to: sectionHref(event.id, key),
                label: EVENT_SECTIONS[key].label,
              })),
            },
            {
              heading: "El día del evento",
              tabs: EVENT_DAY_PAGES.map((page) => ({
                key: page.path,
                to: `${base}/${page.path}`,
                label: page.label,
                // The door's page installs its own offline worker: a whole page load.
                document: page.path === "registro",
              })),
            },
          ]}
        />
        <div className="event-manage-section">
          {section === "datos" ? (
            <section className="card" aria-labelledby="event-form-title">
              <h2 id="event-form-title">Editar Evento</h2>
              <EventForm
                mode="update"
                eventId={event.id}
                cancelTo={`/detalles/${event.id}`}
                values={(formAction?.values as typeof values | undefined) ?? values}
                errors={formAction?.fieldErrors ?? {}}
                timeZone={timeZone}
                formRef={formRef}
                datesFromSessions={loaderData.sessions.length > 1}
              />
            </section>
          ) : null}

          {section === "sesiones" ? (
            <SessionEditor
              sessions={loaderData.sessions}
              editing={loaderData.editingSession}
              reply={sessionReply}
              timeZone={timeZone}
              base={here}
            />
          ) : null}

          {section === "galeria" && gallery ? (
            <section className="card" aria-labelledby="gallery-title">
              <h2 id="gallery-title">Galería</h2>
              <GalleryManager
                gallery={gallery}
                removingImage={removingImage}
                galleryAction={galleryAction}
                params={params}
                base={here}
              />
            </section>
          ) : null}

          {section === "horario" ? (
            <>
              <section className="card" aria-labelledby="puerta-title">
                <h2 id="puerta-title">Horario del registro de entrada</h2>
                <p className="muted">
                  La puerta (registro con código y &lsquo;Marcar presente&rsquo;) abre estas horas
                  antes del inicio de cada sesión y cierra estas horas después de su fin, para
                  todos.
                </p>
                <Form method="post" className="field-row" preventScrollReset>
                  <input type="hidden" name="intent" value="doorWindow" />
                  <Field
                    id="puerta-antes"
                    name="antes"
                    label="Horas antes del inicio"
                    error={doorError}
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={72}
                        required
                        defaultValue={event.doorHoursBefore}
                      />
                    )}
                  </Field>
                  <Field id="puerta-despues" name="despues" label="Horas después del fin">
                    {(control) => (
                      <input
                        {...control}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={72}
                        required
                        defaultValue={event.doorHoursAfter}
                      />
                    )}
                  </Field>
                  <div className="form-actions">
                    <button
                      type="submit"
                      className="button"
                      disabled={navigation.state === "submitting"}
                    >
                      Guardar horario
                    </button>
                  </div>
                </Form>
              </section>

              {loaderData.staffLinks ? (
                <StaffLinks
                  links={loaderData.staffLinks.links}
                  defaultExpiry={loaderData.staffLinks.defaultExpiry}
                  created={
                    linkAction && "created" in linkAction
                      ? ((linkAction.created as NewStaffLink | undefined) ?? null)
                      : null
                  }
                  timeZone={timeZone}
                  errors={linkErrors}
                  values={linkAction?.values as { nombre?: string; vence?: string } | undefined}
                />
              ) : null}
            </>
          ) : null}

          {section === "certificado" ? (
            <section className="card" aria-labelledby="certificado-title">
              <h2 id="certificado-title">Certificado de asistencia</h2>
              <p className="muted">
                Al terminar la última sesión, reciben el certificado quienes asistieron al menos a
                este porcentaje de las sesiones (las canceladas no cuentan). Un club o una reunión
                semanal puede no entregar ninguno.
              </p>
              <Form method="post" className="certificate-form" preventScrollReset>
                <input type="hidden" name="intent" value="certificateShare" />
                <fieldset className="check-list">
                  <legend>¿Entrega certificado?</legend>
                  <label className="check">
                    <input
                      type="radio"
                      name="certificado"
                      value="si"
                      defaultChecked={event.certificateShare !== null}
                    />
                    <span>Sí, según el porcentaje de sesiones</span>
                  </label>
                  <label className="check">
                    <input
                      type="radio"
                      name="certificado"
                      value="no"
                      defaultChecked={event.certificateShare === null}
                    />
                    <span>No entrega certificado</span>
                  </label>
                </fieldset>
                <div className="field-row">
                  <Field
                    id="certificado-porcentaje"
                    name="porcentaje"
                    label="Porcentaje de sesiones"
                    error={shareError}
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={100}
                        defaultValue={event.certificateShare ?? 75}
                      />
                    )}
                  </Field>
                  <div className="form-actions">
                    <button
                      type="submit"
                      className="button"
                      disabled={navigation.state === "submitting"}
                    >
                      Guardar certificado
                    </button>
                  </div>
                </div>
              </Form>
            </section>
          ) : null}

          {eventStaff ? (
            <EventStaff
              eventId={event.id}
              staff={eventStaff.staff}
              kinds={eventStaff.kinds}
              categories={eventStaff.categories}
              error={staffError}
            />
          ) : null}

          {actionData?.message &&
          !staffError &&
          !doorError &&
          !shareError &&
          !linkAction &&
          !sessionReply ? (
            <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
          ) : null}
        </div>
      </div>
    </div>
  );
}

const EVENT_SESSION_INTENTS = ["addSession", "generateSessions", "updateSession", "cancelSession"];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
