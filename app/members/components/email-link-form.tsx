import { Form } from "react-router";
import { Field } from "~/ui/field";
import { EMAIL_MAX } from "~/kernel/limits";

/** 'Recibir un enlace por correo': the address, and where to go after signing in. */
export function EmailLinkForm({
  redirectTo,
  email,
  error,
  busy,
}: {
  redirectTo: string | null;
  email?: string;
  error?: string;
  busy?: boolean;
}) {
  return (
    <Form
      method="post"
      action="/login/correo"
      reloadDocument
      className="email-link-form"
      noValidate
    >
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Field
        id="email-link-address"
        name="email"
        label="Correo electrónico"
        required
        hint="Te enviamos un enlace que sirve una vez, durante 15 minutos."
        error={error}
      >
        {(control) => (
          <input
            {...control}
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            maxLength={EMAIL_MAX}
            defaultValue={email}
            placeholder="nombre@ejemplo.com"
          />
        )}
      </Field>
      <button type="submit" className="button button-secondary login-wide" disabled={busy}>
        Recibir un enlace por correo
      </button>
    </Form>
  );
}
