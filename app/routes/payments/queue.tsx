// /tesoreria/pagos — 'Pagos' (decision 048): the treasurer's queue. Each payment with who pays,
// for which event, the reference, the amount and the receipt beside it; 'Confirmar', 'Beca' and
// 'Rechazar' (with the reason the member reads); the refunds of paid places left before the
// start; the CSV. Every form works without JavaScript. The work lives in queue.server.ts.
import { Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { formatDateTime } from "~/kernel/time";
import { AlertDialog } from "~/ui/dialog";
import { loadQueue, queueAction } from "./queue.server";
import type { Route } from "./+types/queue";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireMay(request, context, "payments.review");
  return loadQueue(request, user, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireMay(request, context, "payments.review");
  return queueAction(request, await readForm(request), user, context);
}

export function meta() {
  return [{ title: "Tesorería — Pagos — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Queue({ loaderData, actionData }: Route.ComponentProps) {
  const { view, views, payments, timeZone, reasonMax, noteMax } = loaderData;
  const submitting = useNavigation().state === "submitting";
  const here = `/tesoreria/pagos?ver=${view}`;
  return (
    <div className="page payment-queue">
      <h1>Pagos</h1>
      <p className="lead">
        Revisa cada comprobante con el movimiento de la cuenta (el código está en la glosa) y
        confírmalo. <Link to="/tesoreria">Forma de pago del sitio</Link> ·{" "}
        <a href="/tesoreria/pagos.csv" download>
          Descargar CSV
        </a>
      </p>
      <nav aria-label="Vistas de pagos">
        <ul className="payment-queue-views">
          {views.map((v) => (
            <li key={v.key}>
              <Link
                to={`?ver=${v.key}`}
                aria-current={v.key === view ? "page" : undefined}
                preventScrollReset
              >
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {payments.length === 0 ? (
        <p className="muted">No hay pagos en esta vista.</p>
      ) : (
        <ul className="payment-queue-list">
          {payments.map((p) => (
            <li key={p.id} className="card payment-queue-item">
              <h2>
                {p.name} <span className="muted">· {p.statusName}</span>
              </h2>
              <p>
                <Link to={`/detalles/${p.eventId}`}>{p.nombreEvento}</Link>
              </p>
              <dl className="payment-queue-facts">
                <div>
                  <dt>Código</dt>
                  <dd>
                    <code>{p.reference}</code>
                  </dd>
                </div>
                <div>
                  <dt>Monto</dt>
                  <dd>{p.amount}</dd>
                </div>
                <div>
                  <dt>Comprobante</dt>
                  <dd>
                    {p.hasReceipt && p.receiptIsPdf ? (
                      <a href={`/pagos/${p.id}/comprobante`} download>
                        Descargar PDF
                      </a>
                    ) : p.hasReceipt ? (
                      <a href={`/pagos/${p.id}/comprobante`} target="_blank" rel="noopener">
                        Ver en grande
                      </a>
                    ) : p.transactionNumber ? (
                      `N.º ${p.transactionNumber}`
                    ) : (
                      "Nada todavía"
                    )}
                    {p.hasReceipt && p.transactionNumber ? ` · N.º ${p.transactionNumber}` : null}
                  </dd>
                </div>
                <div>
                  <dt>
                    {p.submittedAt ? "Enviado" : p.heldUntil ? "Reservada hasta" : "Decidido"}
                  </dt>
                  <dd>
                    {p.submittedAt
                      ? formatDateTime(p.submittedAt, timeZone)
                      : p.heldUntil
                        ? formatDateTime(p.heldUntil, timeZone)
                        : p.decidedAt
                          ? `${formatDateTime(p.decidedAt, timeZone)} · ${p.decidedByName ?? ""}`
                          : "—"}
                  </dd>
                </div>
              </dl>
              {p.hasReceipt && !p.receiptIsPdf ? (
                <a
                  href={`/pagos/${p.id}/comprobante`}
                  target="_blank"
                  rel="noopener"
                  className="payment-receipt"
                >
                  <img
                    src={`/pagos/${p.id}/comprobante`}
                    alt={`Comprobante de ${p.name} (${p.reference})`}
                    loading="lazy"
                  />
                </a>
              ) : null}
              {p.refusalReason && p.status === "refused" ? (
                <p className="muted">Motivo del rechazo: {p.refusalReason}</p>
              ) : null}
              {actionData?.paymentId === p.id && actionData.message ? (
                <p className="field-error" role="alert">
                  {actionData.message}
                </p>
              ) : null}
              {["pending", "submitted", "refused"].includes(p.status) ? (
                <div className="payment-queue-actions">
                  <Form method="post" action={here} preventScrollReset>
                    <input type="hidden" name="paymentId" value={p.id} />
                    <input type="hidden" name="visto" value={p.status} />
                    <button
                      type="submit"
                      name="intent"
                      value="confirm"
                      className="button button-small"
                      disabled={submitting}
                    >
                      Confirmar
                    </button>{" "}
                    <button
                      type="submit"
                      name="intent"
                      value="waive"
                      className="button button-secondary button-small"
                      disabled={submitting}
                    >
                      Beca
                    </button>
                  </Form>
                  {p.status === "submitted" ? (
                    <Form method="post" action={here} preventScrollReset className="form">
                      <input type="hidden" name="paymentId" value={p.id} />
                      <input type="hidden" name="intent" value="refuse" />
                      <input type="hidden" name="visto" value={p.status} />
                      <div className="field">
                        <label htmlFor={`motivo-${p.id}`}>
                          Motivo del rechazo (lo lee la persona)
                        </label>
                        <input
                          id={`motivo-${p.id}`}
                          name="motivo"
                          type="text"
                          required
                          maxLength={reasonMax}
                        />
                      </div>
                      <div className="form-actions">
                        <button
                          type="submit"
                          className="button button-danger button-small"
                          disabled={submitting}
                        >
                          Rechazar
                        </button>
                      </div>
                    </Form>
                  ) : null}
                </div>
              ) : null}
              {p.refundDue ? (
                <Form method="post" action={here} preventScrollReset className="form">
                  <input type="hidden" name="paymentId" value={p.id} />
                  <input type="hidden" name="intent" value="refund" />
                  <p>
                    Dejó el evento el {formatDateTime(p.leftAt!, timeZone)}, antes del inicio: le
                    corresponde un reembolso.
                  </p>
                  <div className="field">
                    <label htmlFor={`nota-${p.id}`}>Cómo se devolvió (opcional)</label>
                    <input id={`nota-${p.id}`} name="nota" type="text" maxLength={noteMax} />
                  </div>
                  <div className="form-actions">
                    <button type="submit" className="button button-small" disabled={submitting}>
                      Registrar reembolso
                    </button>
                  </div>
                </Form>
              ) : null}
              {p.status === "refunded" && p.refundedAt ? (
                <p className="muted">
                  Reembolsado el {formatDateTime(p.refundedAt, timeZone)}
                  {p.refundNote ? ` · ${p.refundNote}` : ""}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {actionData?.message && !actionData.paymentId ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/tesoreria", label: "Volver a Tesorería" }} />;
}
