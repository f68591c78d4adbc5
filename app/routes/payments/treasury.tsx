// /tesoreria — 'Tesorería' (decision 048): the site's way to be paid, set once by an admin or a
// treasurer: the bank's QR (kept lossless, private), the account holder, the bank, what the payer
// must do, and when the QR stops working. What it shows and what its forms do live in
// treasury.server.ts.
import { Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireMay } from "~/guards.server";
import { formatCalendarDate, formatDateTime } from "~/kernel/time";
import {
  ACCOUNT_HOLDER_MAX,
  BANK_MAX,
  INSTRUCTIONS_MAX,
  QR_EXPIRY_WARNING_DAYS,
} from "~/payments/limits";
import { AlertDialog } from "~/ui/dialog";
import { Field } from "~/ui/field";
import { FileField } from "~/ui/file-field";
import { loadTreasury, treasuryAction, type TreasuryActionData } from "./treasury.server";
import type { Route } from "./+types/treasury";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireMay(request, context, "payments.setup");
  return loadTreasury(user, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireMay(request, context, "payments.setup");
  return treasuryAction(request, user, context);
}

export function meta() {
  return [{ title: "Tesorería — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Treasury({ loaderData, actionData }: Route.ComponentProps) {
  const { method, timeZone, maxMegabytes } = loaderData;
  const answer = actionData as TreasuryActionData | undefined;
  const submitting = useNavigation().state === "submitting";
  const methodErrors = answer?.intent === "method" ? (answer.fieldErrors ?? {}) : {};
  const values = (answer?.intent === "method" ? answer.values : undefined) ?? method;
  const text = (name: keyof typeof method) => String(values[name as keyof typeof values] ?? "");
  const qrError = answer?.intent === "qr" ? answer.message : undefined;
  return (
    <div className="page treasury">
      <h1>Tesorería</h1>
      <p className="lead">
        Cómo se paga en este sitio: el QR de la cuenta de la comunidad, que se genera en la app del
        banco, y los datos de la cuenta. Quien se inscribe a un evento con precio los ve al pagar.
      </p>
      <p>
        <Link className="button button-secondary" to="/tesoreria/pagos">
          Pagos por revisar
        </Link>
      </p>

      <section className="card" aria-labelledby="qr-title">
        <h2 id="qr-title">QR del banco</h2>
        {method.expiry === "expired" ? (
          <p className="treasury-warning" role="alert">
            El QR venció el {formatCalendarDate(method.qrExpiresOn)}: el banco ya no acepta pagos a
            él. Genera uno nuevo en la app del banco y súbelo aquí.
          </p>
        ) : method.expiry === "soon" ? (
          <p className="treasury-warning" role="status">
            El QR vence el {formatCalendarDate(method.qrExpiresOn)} (en menos de{" "}
            {QR_EXPIRY_WARNING_DAYS} días). Genera uno nuevo en la app del banco antes de esa fecha.
          </p>
        ) : null}
        {method.qr ? (
          <figure className="treasury-qr">
            <img src={method.qr.src} alt="QR del banco para pagar a la comunidad" width={240} />
            <figcaption className="muted">
              {method.qr.uploadedAt
                ? `Subido el ${formatDateTime(method.qr.uploadedAt, timeZone)}`
                : "Subido"}
              {method.qrExpiresOn
                ? ` · vence el ${formatCalendarDate(method.qrExpiresOn)}`
                : " · sin fecha de vencimiento"}
            </figcaption>
          </figure>
        ) : (
          <p className="muted">
            Todavía no hay un QR: quienes paguen verán solo los datos de la cuenta.
          </p>
        )}
        {/* A plain multipart post: works without JavaScript, and the page answers with the result. */}
        <Form
          method="post"
          encType="multipart/form-data"
          reloadDocument
          className="form treasury-upload"
        >
          <FileField
            id="tesoreria-qr"
            name="imagen"
            label={method.qr ? "Reemplazar el QR" : "Subir el QR"}
            accept="image/png,image/jpeg,image/webp"
            required
            hint={`La imagen que guarda la app del banco (PNG, JPEG o WebP, hasta ${maxMegabytes} MB). Se guarda sin perder nitidez y no es pública.`}
            error={qrError}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={submitting}>
              Subir QR
            </button>
          </div>
        </Form>
        {method.qr ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="removeQr" />
            <button type="submit" className="button button-ghost" disabled={submitting}>
              Quitar QR
            </button>
          </Form>
        ) : null}
      </section>

      <section className="card" aria-labelledby="datos-title">
        <h2 id="datos-title">Datos de la cuenta</h2>
        <Form method="post" className="form" preventScrollReset>
          <input type="hidden" name="intent" value="method" />
          <Field
            id="tesoreria-accountHolder"
            name="accountHolder"
            label="Titular de la cuenta"
            error={methodErrors.accountHolder}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                maxLength={ACCOUNT_HOLDER_MAX}
                autoComplete="off"
                defaultValue={text("accountHolder")}
              />
            )}
          </Field>
          <Field id="tesoreria-bank" name="bank" label="Banco" error={methodErrors.bank}>
            {(control) => (
              <input
                {...control}
                type="text"
                maxLength={BANK_MAX}
                autoComplete="off"
                defaultValue={text("bank")}
              />
            )}
          </Field>
          <Field
            id="tesoreria-instructions"
            name="instructions"
            label="Instrucciones para pagar"
            hint="Por ejemplo: «Escanea el QR desde la app de tu banco y escribe tu código de inscripción en la glosa»."
            error={methodErrors.instructions}
          >
            {(control) => (
              <textarea
                {...control}
                rows={4}
                maxLength={INSTRUCTIONS_MAX}
                defaultValue={text("instructions")}
              />
            )}
          </Field>
          <Field
            id="tesoreria-qrExpiresOn"
            name="qrExpiresOn"
            label="El QR vence el (opcional)"
            hint="La fecha que muestra el banco junto al QR. Vacía si no vence. Avisamos 30 días antes."
            error={methodErrors.qrExpiresOn}
          >
            {(control) => <input {...control} type="date" defaultValue={text("qrExpiresOn")} />}
          </Field>
          <div className="form-actions">
            <button type="submit" className="button" disabled={submitting}>
              Guardar datos de pago
            </button>
          </div>
        </Form>
      </section>
      {answer?.message && answer.intent !== "qr" ? (
        <AlertDialog key={JSON.stringify(answer)} message={answer.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
