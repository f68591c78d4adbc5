// /detalles/:eventId/pago — 'Pago de tu inscripción' (decision 048): the member whose place at a
// paid event is held sees the amount, the reference to write in the transfer and the community's
// QR, and sends the receipt (a photo or PDF) or the transaction number, in one form with one
// button. Made for a phone first; the form works without JavaScript. What it shows and does lives in pay.server.ts.
import { Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireUser } from "~/guards.server";
import { formatDateTime, formatDateTimeRange } from "~/kernel/time";
import { formatBs } from "~/payments/money";
import { AlertDialog } from "~/ui/dialog";
import { Field, FieldError, FieldGroup } from "~/ui/field";
import { FileField } from "~/ui/file-field";
import { loadPayPage, payAction, type PayActionData } from "./pay.server";
import type { Route } from "./+types/pay";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return loadPayPage(request, user, params.eventId, context);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return payAction(request, user, params.eventId, context);
}

export function meta({ data }: Route.MetaArgs) {
  return [
    { title: `Pago — ${data?.event.nombreEvento ?? "Inscripción"} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

/** The state's box: waiting (amber), done (green), over (red). */
const STATUS_CLASS: Record<string, string> = {
  pending: "payment-status payment-status-pending",
  submitted: "payment-status",
  refused: "payment-status payment-status-expired",
  confirmed: "payment-status payment-status-confirmed",
  waived: "payment-status payment-status-waived",
  expired: "payment-status payment-status-expired",
  cancelled: "payment-status payment-status-cancelled",
};

/** The reference as it is read aloud and typed: two groups of four. */
const grouped = (reference: string) => `${reference.slice(0, 4)} ${reference.slice(4)}`;

export default function Pay({ loaderData, actionData }: Route.ComponentProps) {
  const { event, payment, method, timeZone, maxMegabytes, team } = loaderData;
  // A team's fee (decision 052): the same steps, for the team's place.
  const place = team ? "el lugar del equipo" : "tu plaza";
  const answer = actionData as PayActionData | undefined;
  const submitting = useNavigation().state === "submitting";
  const open = ["pending", "submitted", "refused"].includes(payment.status);
  const toPay = payment.status === "pending" || payment.status === "refused";
  const errors = answer?.intent === "pay" ? (answer.fieldErrors ?? {}) : {};
  return (
    <div className="page payment">
      <h1>{team ? `Cuota del equipo «${team.name}»` : "Pago de tu inscripción"}</h1>
      <p className="payment-event">
        <Link to={team ? `/equipos/${team.id}` : `/detalles/${event.id}`}>
          {team ? `${team.name} · ${event.nombreEvento}` : event.nombreEvento}
        </Link>
        <br />
        <span className="muted">{formatDateTimeRange(event.startsAt, event.endsAt, timeZone)}</span>
      </p>

      <p className={STATUS_CLASS[payment.status] ?? "payment-status"} role="status">
        {payment.status === "pending" && payment.heldUntil
          ? `Pendiente de pago: ${place} está reservad${team ? "o" : "a"} hasta el ${formatDateTime(payment.heldUntil, timeZone)}`
          : payment.status === "refused" && payment.heldUntil
            ? `Tesorería no pudo confirmar tu pago: «${payment.refusalReason ?? ""}». Envía un comprobante correcto hasta el ${formatDateTime(payment.heldUntil, timeZone)}`
            : payment.status === "submitted"
              ? `Recibimos tu pago. Tesorería lo revisará y te avisará por correo; ${place} sigue reservad${team ? "o" : "a"}.`
              : payment.status === "confirmed"
                ? team
                  ? "Cuota confirmada."
                  : "Pago confirmado. ¡Nos vemos en el evento!"
                : payment.status === "waived"
                  ? "Tienes una beca: no necesitas pagar."
                  : payment.status === "expired"
                    ? team
                      ? "La reserva venció y el equipo se retiró. Si quedan lugares, inscríbelo de nuevo."
                      : "Tu reserva venció y la plaza pasó a otra persona. Si quedan plazas, inscríbete de nuevo."
                    : team
                      ? "Este pago ya no está activo (el equipo se retiró)."
                      : "Esta inscripción ya no está activa."}
      </p>

      <dl className="payment-facts">
        <div>
          <dt>Monto</dt>
          <dd className="payment-amount">{formatBs(payment.amountCents)}</dd>
        </div>
        <div>
          <dt>Código para la glosa</dt>
          <dd>
            <code className="payment-reference" aria-label={payment.reference.split("").join(" ")}>
              {grouped(payment.reference)}
            </code>
          </dd>
        </div>
      </dl>

      {toPay ? (
        <section aria-labelledby="como-pagar">
          <h2 id="como-pagar">Cómo pagar</h2>
          {method.ready ? (
            <ol className="payment-steps">
              <li>
                Abre la app de tu banco y escanea el QR
                {method.qr ? null : " de la cuenta de abajo"}.
              </li>
              <li>Paga {formatBs(payment.amountCents)}.</li>
              <li>
                En la glosa o descripción escribe tu código <strong>{payment.reference}</strong>.
              </li>
              <li>Envía aquí la foto o el PDF del comprobante, o el número de transacción.</li>
            </ol>
          ) : (
            <p>Tesorería todavía no publicó cómo pagar. Vuelve a esta página más tarde.</p>
          )}
          {method.qr ? (
            <img
              className="payment-qr"
              src={method.qr}
              alt="QR de la cuenta de la comunidad para pagar"
              width={240}
              height={240}
            />
          ) : null}
          {method.accountHolder || method.bank ? (
            <p className="muted">
              {[method.accountHolder, method.bank].filter(Boolean).join(" · ")}
            </p>
          ) : null}
          {method.instructions ? (
            <p className="payment-instructions">{method.instructions}</p>
          ) : null}
        </section>
      ) : null}

      {open ? (
        <section aria-labelledby="enviar-pago">
          <h2 id="enviar-pago">
            {payment.status === "submitted"
              ? "¿Te equivocaste? Envía otro"
              : "Envía tu comprobante"}
          </h2>
          {payment.hasReceipt ? (
            <p>
              <a href={`/pagos/${payment.id}/comprobante`} download>
                Descargar el comprobante que enviaste
              </a>
            </p>
          ) : null}
          {payment.transactionNumber ? (
            <p>Número de transacción enviado: {payment.transactionNumber}</p>
          ) : null}
          {/* One form, one button: the receipt or the number is enough; both are kept. */}
          <Form
            method="post"
            encType="multipart/form-data"
            reloadDocument
            className="form payment-proof"
          >
            <input type="hidden" name="intent" value="pay" />
            <FieldGroup
              id="pago-prueba"
              className="payment-proof-fields"
              legend="El comprobante o el número de transacción"
              hint="Basta con uno de los dos."
              error={errors.prueba}
            >
              <FieldError id="pago-prueba-error" message={errors.prueba} />
              <FileField
                id="pago-comprobante"
                name="comprobante"
                label="Foto o PDF del comprobante"
                accept="image/jpeg,image/png,image/webp,application/pdf"
                hint={`Una captura de la app del banco o el PDF, hasta ${maxMegabytes} MB. Solo lo ve tesorería.`}
                error={errors.comprobante}
              />
              <Field
                id="pago-transactionNumber"
                name="transactionNumber"
                label="O el número de transacción"
                hint="Letras, cifras y guiones, como lo muestra tu banco."
                error={errors.transactionNumber}
              >
                {(control) => (
                  <input
                    {...control}
                    type="text"
                    inputMode="text"
                    autoComplete="off"
                    maxLength={40}
                    defaultValue={String(answer?.values?.transactionNumber ?? "")}
                  />
                )}
              </Field>
            </FieldGroup>
            <div className="form-actions">
              <button type="submit" className="button" disabled={submitting}>
                Enviar comprobante
              </button>
            </div>
          </Form>
        </section>
      ) : null}
      {answer?.message && answer.intent === "" ? (
        <AlertDialog key={JSON.stringify(answer)} message={answer.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
