import { useState, type FormEvent } from "react";
import { Field } from "~/ui/field";
import { QrScanner } from "~/attendance/components/qr-scanner";

/**
 * The camera and the typed code. Once the page's script has the list (`local`), a code is
 * handled on the phone by `onCode` (false: it cannot be a code, and stays in the field); until
 * then, and without JavaScript, the form posts it to the page's action.
 */
export function CheckInReader({
  local,
  codeError,
  onScan,
  onCode,
}: {
  local: boolean;
  codeError: string | undefined;
  onScan: (value: string) => void;
  onCode: (value: string) => boolean;
}) {
  const [code, setCode] = useState("");

  function typed(submit: FormEvent<HTMLFormElement>) {
    if (!local) return;
    submit.preventDefault();
    if (onCode(code)) setCode("");
  }

  return (
    <section className="card admin-checkin-reader" aria-labelledby="reader-title">
      <h2 id="reader-title" className="visually-hidden">
        Registrar a una persona
      </h2>
      <QrScanner onCode={onScan} />
      <form method="post" className="form admin-checkin-form" onSubmit={typed} noValidate>
        <input type="hidden" name="intent" value="checkIn" />
        <Field
          id="checkin-code"
          name="codigo"
          label="Código de la persona"
          hint="8 letras y números, como ABCD-2345: está bajo su código QR."
          error={codeError}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              value={code}
              onChange={(change) => setCode(change.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button">
          Registrar
        </button>
      </form>
    </section>
  );
}
