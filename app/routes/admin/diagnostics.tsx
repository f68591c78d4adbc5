// /admin/diagnostico — 'Diagnóstico': what the running site believes about itself (its version,
// address, the proxy in front, sign-in, mail, storage, backups, database, processes), each line
// saying in plain Spanish what is wrong and how to fix it. Admins only.
import { Form, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireAdmin } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import type { DiagnosticState } from "~/diagnostics.server";
import { diagnosticsAction, loadDiagnostics } from "./diagnostics.server";
import type { Route } from "./+types/diagnostics";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  return loadDiagnostics(admin, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  return diagnosticsAction(await readForm(request), admin, context);
}

export function meta() {
  return [
    { title: "Panel de Administración — Diagnóstico — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

const STATE_CLASS: Record<DiagnosticState, string> = {
  bien: "diagnostics-bien",
  aviso: "diagnostics-aviso",
  mal: "diagnostics-mal",
};

const STATE_LABEL: Record<DiagnosticState, string> = {
  bien: "Bien",
  aviso: "Revisar",
  mal: "Corregir",
};

/** 'Hay 1 cosa que corregir y 2 para revisar: …' */
function summary(problems: number, reviews: number): string {
  const count = (n: number) => (n === 1 ? "1 cosa" : `${n} cosas`);
  if (problems === 0 && reviews === 0) return "Todo está bien.";
  const parts = [
    problems > 0 ? `${count(problems)} que corregir` : "",
    reviews > 0 ? `${problems > 0 ? reviews : count(reviews)} para revisar` : "",
  ].filter(Boolean);
  return `Hay ${parts.join(" y ")}: cada una dice qué pasa y cómo arreglarlo.`;
}

export default function Diagnostics({ loaderData, actionData }: Route.ComponentProps) {
  const { lines, smtp, email } = loaderData;
  const sending = useNavigation().state === "submitting";
  const problems = lines.filter((line) => line.state === "mal").length;
  const reviews = lines.filter((line) => line.state === "aviso").length;
  return (
    <div className="page diagnostics">
      <h1>Diagnóstico</h1>
      <p className="lead">
        Lo que el sitio cree de sí mismo en este momento, visto desde esta misma petición.{" "}
        {summary(problems, reviews)}
      </p>
      {lines.map((line) => (
        <section
          key={line.key}
          className="card diagnostics-line"
          aria-labelledby={`diag-${line.key}`}
        >
          <h2 id={`diag-${line.key}`}>
            <span>{line.title}</span>{" "}
            <span className={`badge ${STATE_CLASS[line.state]}`}>{STATE_LABEL[line.state]}</span>
          </h2>
          <dl className="diagnostics-facts">
            {line.facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {line.advice.map((text) => (
            <p key={text} className="diagnostics-advice">
              {text}
            </p>
          ))}
          {line.key === "correo" ? (
            <Form method="post" className="diagnostics-test-mail">
              <input type="hidden" name="intent" value="testMail" />
              <button type="submit" className="button" disabled={!smtp || sending}>
                {sending ? "Enviando…" : "Enviar correo de prueba"}
              </button>
              <span className="diagnostics-hint">
                {smtp
                  ? `A tu dirección, ${email}; uno por minuto.`
                  : "Hace falta SMTP_URL para enviarlo."}
              </span>
              {actionData ? (
                <p
                  role={actionData.ok ? "status" : "alert"}
                  className={actionData.ok ? "diagnostics-ok" : "diagnostics-error"}
                >
                  {actionData.message}
                </p>
              ) : null}
            </Form>
          ) : null}
        </section>
      ))}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
