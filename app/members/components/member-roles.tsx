import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { ROLE_NOT_SEEN } from "../roles";

export interface RoleRow {
  grantId: string;
  kind: string;
  label: string;
  eventId: string | null;
  eventName: string | null;
  categoryId?: string | null;
  categoryName?: string | null;
}

export interface RoleKindOption {
  kind: string;
  label: string;
  /** "event": the role is for one event, chosen in the form. */
  scope: "event" | "site";
}

/** 'Rol': the kinds this person may give, as a select. */
export function RoleKindField({
  id,
  kinds,
  initial,
  onChange,
}: {
  id: string;
  kinds: ReadonlyArray<{ kind: string; label: string; scope?: string }>;
  initial: string | undefined;
  onChange?: (kind: string) => void;
}) {
  return (
    <Field id={id} name="kind" label="Rol">
      {(control) => (
        <select
          {...control}
          defaultValue={initial}
          onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
        >
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind} data-scope={k.scope}>
              {k.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A role as a line of text: 'Registro de entrada — Taller de robótica', 'Jurado (Sumo) — Copa'. */
export function roleText(role: RoleRow): string {
  const label = role.categoryName ? `${role.label} (${role.categoryName})` : role.label;
  return role.eventName ? `${label} — ${role.eventName}` : label;
}

/**
 * A member's roles on their details (admins): each with 'Quitar', and 'Dar rol' with the kind and,
 * for kinds tied to one event, the event.
 */
export function MemberRoles({
  userId,
  roles,
  kinds,
  events,
  returnTo,
}: {
  /** The panel's query (its searches and pages), kept across the redirect after a change. */
  returnTo: string;
  userId: string;
  roles: readonly RoleRow[];
  kinds: readonly RoleKindOption[];
  events: ReadonlyArray<{ id: string; nombreEvento: string }>;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [kind, setKind] = useState(kinds[0]?.kind);
  // A site-wide role (Tesorería, edición) has no event: its form offers none. Without scripts the
  // stylesheet hides the field for them, and the server refuses an event sent with one.
  const forEvent = kinds.find((k) => k.kind === kind)?.scope !== "site";
  return (
    <section aria-labelledby="member-roles-title">
      <h3 id="member-roles-title">Roles</h3>
      {roles.length === 0 ? (
        <p>Sin roles: solo lo de cualquier miembro.</p>
      ) : (
        <ul className="plain-list role-list">
          {roles.map((role) => (
            <li key={`${role.kind}-${role.eventId ?? ""}-${role.categoryId ?? ""}`}>
              <span>{roleText(role)}</span>
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="revokeRole" />
                <input type="hidden" name="returnTo" value={returnTo} />
                <input type="hidden" name="visto" value={role.grantId} />
                <input type="hidden" name="userId" value={userId} />
                <input type="hidden" name="kind" value={role.kind} />
                <input type="hidden" name="eventId" value={role.eventId ?? ""} />
                <input type="hidden" name="categoryId" value={role.categoryId ?? ""} />
                <button
                  type="submit"
                  className="button button-secondary button-small"
                  disabled={busy}
                >
                  Quitar<span className="visually-hidden"> el rol {roleText(role)}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="role-grant-form" preventScrollReset>
        <input type="hidden" name="intent" value="grantRole" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <input type="hidden" name="visto" value={ROLE_NOT_SEEN} />
        <input type="hidden" name="userId" value={userId} />
        <RoleKindField id="role-kind" kinds={kinds} initial={kinds[0]?.kind} onChange={setKind} />
        {forEvent ? (
          <div className="role-event-field">
            <Field
              id="role-event"
              name="eventId"
              label="Evento"
              hint="Los eventos que no terminaron. El personal de uno ya terminado se da en su página."
            >
              {(control) => (
                <select {...control} defaultValue="">
                  <option value="">—</option>
                  {events.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.nombreEvento}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Dar rol
          </button>
        </div>
      </Form>
    </section>
  );
}
