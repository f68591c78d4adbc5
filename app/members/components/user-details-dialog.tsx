import { Form, Link, useNavigation } from "react-router";
import { Dialog } from "~/ui/dialog";
import { formatCalendarDate, formatDateTime } from "~/kernel/time";
import { MemberRoles, type RoleKindOption, type RoleRow } from "./member-roles";

const na = (value: string | null | undefined) => (value && value.trim() ? value : "N/A");

interface UserDetails {
  id: string;
  displayName: string | null;
  email: string | null;
  nombreCompleto: string | null;
  fechaNacimiento: string | null;
  pais: string | null;
  ciudad: string | null;
  genero: string | null;
  habilidades: string | null;
  isAdmin: boolean;
  /** `ended` events are history: `attended` when an admin marked the member present. */
  events: ReadonlyArray<{
    id: string;
    nombreEvento: string;
    startsAt: string;
    ended: boolean;
    attended: boolean;
  }>;
  roles: readonly RoleRow[];
}

/** 'Detalles del Usuario': the profile, the events they take part in, their roles, and the admin switch. */
export function UserDetailsDialog({
  userDetails,
  closeHref,
  currentQuery,
  timeZone,
  roleKinds,
  events,
}: {
  userDetails: UserDetails;
  closeHref: string;
  currentQuery: string;
  timeZone: string;
  roleKinds: readonly RoleKindOption[];
  events: ReadonlyArray<{ id: string; nombreEvento: string }>;
}) {
  const navigation = useNavigation();
  return (
    <Dialog title="Detalles del Usuario" closeTo={closeHref}>
      <dl className="details">
        {[
          ["Nombre de Google", na(userDetails.displayName)],
          ["Correo electrónico", na(userDetails.email)],
          ["Nombre completo", na(userDetails.nombreCompleto)],
          [
            "Fecha de nacimiento",
            userDetails.fechaNacimiento ? formatCalendarDate(userDetails.fechaNacimiento) : "N/A",
          ],
          ["País", na(userDetails.pais)],
          ["Ciudad", na(userDetails.ciudad)],
          ["Género", na(userDetails.genero)],
          ["Habilidades", na(userDetails.habilidades)],
          ["Administrador", userDetails.isAdmin ? "Sí" : "No"],
        ].map(([term, value]) => (
          <div className="detail" key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>Eventos en los que participa</h3>
      {userDetails.events.length === 0 ? (
        <p>Este usuario no está participando en ningún evento.</p>
      ) : (
        <ul className="plain-list">
          {userDetails.events.map((e) => (
            <li key={e.id}>
              <Link to={`/detalles/${e.id}`}>{e.nombreEvento}</Link> —{" "}
              <time dateTime={e.startsAt}>{formatDateTime(e.startsAt, timeZone)}</time>
              {e.ended ? (
                <>
                  {" "}
                  <span className="badge">{e.attended ? "Asistió" : "Inscrito"}</span>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <MemberRoles
        userId={userDetails.id}
        roles={userDetails.roles}
        kinds={roleKinds}
        events={events}
        returnTo={currentQuery}
      />
      <Form method="post" className="form-actions" preventScrollReset>
        <input
          type="hidden"
          name="intent"
          value={userDetails.isAdmin ? "revokeAdmin" : "grantAdmin"}
        />
        <input type="hidden" name="userId" value={userDetails.id} />
        <input type="hidden" name="visto" value={userDetails.isAdmin ? "1" : "0"} />
        <input type="hidden" name="returnTo" value={currentQuery} />
        <button
          type="submit"
          // The dialog reads a member's details: making them admin is one action among others, not
          // its call to action (outlined); taking it away is destructive.
          className={userDetails.isAdmin ? "button button-danger" : "button button-secondary"}
          disabled={navigation.state === "submitting"}
        >
          {userDetails.isAdmin ? "Quitar administrador" : "Hacer administrador"}
        </button>
      </Form>
    </Dialog>
  );
}
