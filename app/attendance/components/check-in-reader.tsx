import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Field } from "~/ui/field";
import { CHECK_IN_CODE_FIELD_MAX } from "~/attendance/check-in";
import { QrScanner } from "~/attendance/components/qr-scanner";
import type { CheckInOutcome } from "~/attendance/use-check-in-sync";

/**
 * The camera, the typed code and, right under them, the result (`children`), so that on a phone
 * the field, 'Registrar' and the confirmation fit on one screen. Once the page's script has the
 * list (`local`), a code is handled on the phone by `onCode` (false: it cannot be a code); until
 * then, and without JavaScript, the form posts it to the page's action. A typed code stays in the
 * field until it has checked someone in, so a wrong one can be corrected.
 */
export function CheckInReader({
  local,
  typedCode,
  codeError,
  outcome,
  onScan,
  onCode,
  children,
}: {
  local: boolean;
  /** The code last posted without JavaScript and refused, shown again. */
  typedCode: string | undefined;
  codeError: string | undefined;
  outcome: CheckInOutcome | null;
  onScan: (value: string) => void;
  onCode: (value: string) => boolean;
  children: ReactNode;
}) {
  const [code, setCode] = useState(typedCode ?? "");
  const awaiting = useRef(false);
  const field = useRef<HTMLInputElement>(null);

  // After a typed code, the field is ready for the next one: emptied once someone is in, and
  // focused either way (a wrong code stays, to be corrected).
  useEffect(() => {
    if (!awaiting.current || !outcome) return;
    awaiting.current = false;
    if (outcome.kind !== "refused") setCode("");
    field.current?.focus();
  }, [outcome]);

  function typed(submit: FormEvent<HTMLFormElement>) {
    if (!local) return;
    submit.preventDefault();
    awaiting.current = onCode(code);
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
          hint="Está bajo su QR, como ABCD-2345."
          error={codeError}
        >
          {(control) => (
            <div className="admin-checkin-entry">
              <input
                {...control}
                ref={field}
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={CHECK_IN_CODE_FIELD_MAX}
                value={code}
                onChange={(change) => setCode(change.target.value)}
              />
              <button type="submit" className="button">
                Registrar
              </button>
            </div>
          )}
        </Field>
      </form>
      {children}
    </section>
  );
}
