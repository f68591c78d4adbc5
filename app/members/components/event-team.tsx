import { Form, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { RoleKindField } from "./member-roles";

interface TeamMember {
  userId: string;
  name: string;
  email: string;
  kind: string;
  label: string;
}

/**
 * 'Equipo del evento' on an event's page, for admins and its organisers: who organises it and who
 * works the door, each with 'Quitar', and 'Dar rol' to a member by e-mail.
 */
export function EventTeam({
  eventId,
  staff,
  kinds,
  error,
}: {
  eventId: string;
  staff: readonly TeamMember[];
  kinds: ReadonlyArray<{ kind: string; label: string }>;
  error?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="card event-team" aria-labelledby="equipo-title">
      <h2 id="equipo-title">Equipo del evento</h2>
      {staff.length === 0 ? (
        <p className="muted">Nadie más organiza este evento ni registra la entrada.</p>
      ) : (
        <ul className="plain-list role-list">
          {staff.map((m) => (
            <li key={`${m.kind}-${m.userId}`}>
              <span>
                <strong>{m.name}</strong> <span className="badge">{m.label}</span>
              </span>
              {kinds.some((k) => k.kind === m.kind) ? (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="revokeRole" />
                  <input type="hidden" name="userId" value={m.userId} />
                  <input type="hidden" name="kind" value={m.kind} />
                  <button
                    type="submit"
                    className="button button-secondary button-small"
                    disabled={busy}
                  >
                    Quitar
                    <span className="visually-hidden">
                      {" "}
                      a {m.name} ({m.label})
                    </span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="role-grant-form" preventScrollReset>
        <input type="hidden" name="intent" value="grantRole" />
        <input type="hidden" name="eventId" value={eventId} />
        <Field
          id="team-email"
          name="email"
          label="Correo del miembro"
          required
          error={error}
          hint="Debe haber iniciado sesión en el sitio al menos una vez."
        >
          {(control) => <input {...control} type="email" maxLength={320} autoComplete="off" />}
        </Field>
        <RoleKindField id="team-kind" kinds={kinds} initial={kinds[kinds.length - 1]?.kind} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Dar rol
          </button>
        </div>
      </Form>
    </section>
  );
}
