import { Form, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { MEMBER_MESSAGES } from "../messages";
import { ROLE_NOT_SEEN } from "../roles";
import { RoleKindField } from "./member-roles";

interface StaffMember {
  grantId: string;
  userId: string;
  name: string;
  email: string;
  kind: string;
  label: string;
  /** A judge's category. */
  categoryId?: string | null;
  categoryName?: string | null;
}

/**
 * 'Personal del evento' on an event's page, for admins and its organisers: who organises it, who
 * works the door and who judges each category of a competition, each with 'Quitar', and 'Dar rol'
 * to a member by e-mail (a judge with the category they judge).
 */
export function EventStaff({
  eventId,
  staff,
  kinds,
  categories = [],
  error,
}: {
  eventId: string;
  staff: readonly StaffMember[];
  kinds: ReadonlyArray<{ kind: string; label: string }>;
  /** A competition's categories: shown when judges may be given. */
  categories?: ReadonlyArray<{ id: string; name: string }>;
  error?: string;
}) {
  const judges = categories.length > 0 && kinds.some((k) => k.kind === "judge");
  // A missing or unknown category is told next to the category, anything else next to the e-mail.
  const categoryError =
    judges &&
    (error === MEMBER_MESSAGES.roleCategoryMissing ||
      error === MEMBER_MESSAGES.roleCategoryNotFound)
      ? error
      : undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="card event-staff" aria-labelledby="personal-title">
      <h2 id="personal-title">Personal del evento</h2>
      {staff.length === 0 ? (
        <p className="muted">Nadie más organiza este evento ni registra la entrada.</p>
      ) : (
        <ul className="plain-list role-list">
          {staff.map((m) => (
            <li key={`${m.kind}-${m.userId}-${m.categoryId ?? ""}`}>
              <span>
                <strong>{m.name}</strong>{" "}
                <span className="badge">
                  {m.categoryName ? `${m.label}: ${m.categoryName}` : m.label}
                </span>
              </span>
              {kinds.some((k) => k.kind === m.kind) ? (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="revokeRole" />
                  <input type="hidden" name="visto" value={m.grantId} />
                  <input type="hidden" name="userId" value={m.userId} />
                  <input type="hidden" name="kind" value={m.kind} />
                  {m.categoryId ? (
                    <input type="hidden" name="categoryId" value={m.categoryId} />
                  ) : null}
                  <button
                    type="submit"
                    className="button button-secondary button-small"
                    disabled={busy}
                  >
                    Quitar
                    <span className="visually-hidden">
                      {" "}
                      a {m.name} ({m.categoryName ? `${m.label}: ${m.categoryName}` : m.label})
                    </span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Form
        // A role given (one more grant in the list) empties the form for the next person; a
        // refusal changes no grant, so what was typed stays.
        key={staff.map((s) => s.grantId).join()}
        method="post"
        className="role-grant-form"
        preventScrollReset
      >
        <input type="hidden" name="intent" value="grantRole" />
        <input type="hidden" name="visto" value={ROLE_NOT_SEEN} />
        <input type="hidden" name="eventId" value={eventId} />
        <Field
          id="staff-email"
          name="email"
          label="Correo del miembro"
          required
          error={categoryError ? undefined : error}
          hint="Debe haber iniciado sesión en el sitio al menos una vez."
        >
          {(control) => <input {...control} type="email" maxLength={320} autoComplete="off" />}
        </Field>
        <RoleKindField
          id="staff-kind"
          kinds={kinds}
          initial={kinds.find((k) => k.kind === "door")?.kind}
        />
        {judges ? (
          <Field
            id="staff-category"
            name="categoryId"
            label="Categoría que juzgará"
            hint="Solo para el rol de jurado."
            error={categoryError}
          >
            {(control) => (
              <select {...control} defaultValue="">
                <option value="">—</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
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
