import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { formatDateTime } from "~/kernel/time";
import { Field } from "~/ui/field";

export interface StaffLinkItem {
  id: string;
  label: string;
  state: "active" | "expired" | "revoked";
  expiresAt: string;
  revokedAt: string | null;
  createdByName: string;
}

/** A link just made: shown this once, since only its hash is kept. */
export interface NewStaffLink {
  label: string;
  url: string;
  eventName: string;
  expiresAt: string;
}

const STATE_LABEL = { active: "Activo", expired: "Vencido", revoked: "Revocado" } as const;
const STATE_CLASS = {
  active: "badge staff-link-active",
  expired: "badge",
  revoked: "badge staff-link-revoked",
} as const;

/** The text a WhatsApp message carries with the link. */
function shareText(link: NewStaffLink, timeZone: string): string {
  return `Hola ${link.label}: con este enlace registras la entrada de «${link.eventName}» desde tu teléfono, sin cuenta. Vale hasta el ${formatDateTime(link.expiresAt, timeZone)}. No lo compartas. ${link.url}`;
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-secondary"
      onClick={() => {
        navigator.clipboard
          .writeText(text)
          .then(() => setCopied(true))
          .catch(() => setCopied(false));
      }}
    >
      {copied ? "Enlace copiado" : "Copiar enlace"}
    </button>
  );
}

/**
 * 'Enlaces de registro' on an event's management page (decision 041): make a link for a door
 * volunteer without an account, share it, see each link's state and revoke it.
 */
export function StaffLinks({
  links,
  created,
  defaultExpiry,
  timeZone,
  errors,
  values,
}: {
  links: readonly StaffLinkItem[];
  created: NewStaffLink | null;
  defaultExpiry: string;
  timeZone: string;
  errors?: { nombre?: string; vence?: string; other?: string };
  values?: { nombre?: string; vence?: string };
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="card staff-links" aria-labelledby="enlaces-title">
      <h2 id="enlaces-title">Enlaces de registro</h2>
      <p className="muted">
        Un enlace permite a una persona sin cuenta registrar la entrada de este evento desde su
        teléfono, y nada más, dentro del horario del registro. Revócalo y deja de funcionar al
        instante.
      </p>
      {created ? (
        <div className="staff-links-new" role="status">
          <p>
            <strong>Enlace para «{created.label}» creado.</strong> Cópialo o compártelo ahora: por
            seguridad no se vuelve a mostrar.
          </p>
          <label htmlFor="staff-link-url">Enlace</label>
          <input
            id="staff-link-url"
            type="text"
            readOnly
            value={created.url}
            onFocus={(e) => e.currentTarget.select()}
          />
          <div className="button-row">
            <CopyButton text={created.url} />
            <a
              className="button"
              href={`https://wa.me/?text=${encodeURIComponent(shareText(created, timeZone))}`}
              target="_blank"
              rel="noreferrer"
            >
              Compartir por WhatsApp
            </a>
          </div>
        </div>
      ) : null}
      {errors?.other ? (
        <p className="field-error" role="alert">
          {errors.other}
        </p>
      ) : null}
      <Form
        // A link just made empties the form (its address is shown above): a second click makes
        // no second link for the same person.
        key={created?.url ?? "nuevo"}
        method="post"
        className="staff-links-form"
        preventScrollReset
      >
        <input type="hidden" name="intent" value="createStaffLink" />
        <Field
          id="staff-link-label"
          name="nombre"
          label="Para quién"
          required
          error={errors?.nombre}
          hint="El nombre de la persona voluntaria, para reconocer el enlace."
        >
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={80}
              autoComplete="off"
              defaultValue={values?.nombre ?? ""}
            />
          )}
        </Field>
        <Field
          id="staff-link-expiry"
          name="vence"
          label="Vence"
          required
          error={errors?.vence}
          hint="Por omisión, al terminar el horario del registro de entrada."
        >
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              defaultValue={values?.vence ?? defaultExpiry}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Crear enlace
          </button>
        </div>
      </Form>
      <h3>Enlaces creados</h3>
      {links.length === 0 ? (
        <p className="muted">Todavía no hay enlaces de registro para este evento.</p>
      ) : (
        <ul className="plain-list role-list staff-links-list">
          {links.map((link) => (
            <li key={link.id}>
              <span>
                <strong>{link.label}</strong>{" "}
                <span className={STATE_CLASS[link.state]}>{STATE_LABEL[link.state]}</span>
                <span className="muted staff-link-dates">
                  {link.state === "revoked" && link.revokedAt
                    ? `revocado el ${formatDateTime(link.revokedAt, timeZone)}`
                    : `${link.state === "expired" ? "venció" : "vence"} el ${formatDateTime(link.expiresAt, timeZone)}`}
                  {` · creado por ${link.createdByName}`}
                </span>
              </span>
              {link.state === "active" ? (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="revokeStaffLink" />
                  <input type="hidden" name="linkId" value={link.id} />
                  <button
                    type="submit"
                    className="button button-danger button-small"
                    disabled={busy}
                  >
                    Revocar<span className="visually-hidden"> el enlace de {link.label}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
