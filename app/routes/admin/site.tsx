// /admin/sitio — the landing pages' content (docs/decisions/023-site-content.md): the hero, the
// people, logos and courses of the home page, the competition page, the course page and the
// footer's social links, one form per section. Admins only; what it shows and what its forms do
// live in site.server.ts.
import { Link } from "react-router";
import { SiteSectionForm } from "~/site/components/section-form";
import { AlertDialog } from "~/ui/dialog";
import { SectionTabs } from "~/ui/section-tabs";
import { ErrorPage } from "~/error-page";
import { SITE_SECTIONS, sectionSpec } from "~/site/section-fields";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";
import { formatDateTime } from "~/kernel/time";
import { requireAdmin } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { loadSitePage, siteAction } from "./site.server";
import type { Route } from "./+types/site";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return loadSitePage(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  return siteAction(await readForm(request), admin, context);
}

export function meta() {
  return [
    { title: "Panel de Administración — Contenido del sitio — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

export default function SiteSectionsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { edited, demo, timeZone } = loaderData;
  // The section just posted (its answer holds what was sent), else the one the address names.
  const answer = actionData?.section ? actionData : null;
  const spec = sectionSpec(answer?.section ?? loaderData.section);
  const savedAt = edited[spec.key];
  return (
    <div className="page admin-site">
      <h1>Contenido del sitio</h1>
      <p className="lead">
        Lo que muestran la página de inicio, <Link to="/events">/events</Link> y{" "}
        <Link to="/clase1">/clase1</Link>, y las redes del pie de página. Un cambio se ve en el
        sitio en cuanto lo guardas; una parte sin datos no se muestra.
      </p>
      {demo.length > 0 ? (
        <div className="demo-notice" role="note" aria-labelledby="demo-notice-title">
          <h2 id="demo-notice-title">Contenido de demostración</h2>
          <p>{demoNotes.adminPage}</p>
          <ul>
            {demo.map((key) => (
              <li key={key}>
                <Link to={`?seccion=${key}`} preventScrollReset>
                  {sectionSpec(key).title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <SectionTabs
        label="Secciones del contenido"
        current={spec.key}
        groups={[
          {
            tabs: SITE_SECTIONS.map((section) => ({
              key: section.key,
              to: `?seccion=${section.key}`,
              label: section.title,
            })),
          },
        ]}
      />
      <SiteSectionForm
        key={spec.key}
        spec={spec}
        values={answer?.values ?? loaderData.values}
        errors={answer?.fieldErrors ?? {}}
        refused={Boolean(answer?.fieldErrors && Object.keys(answer.fieldErrors).length > 0)}
        choices={loaderData.choices}
        notice={demo.includes(spec.key) ? <DemoNote>{demoNotes.adminSection}</DemoNote> : null}
        status={
          savedAt
            ? `Guardado por última vez: ${formatDateTime(savedAt, timeZone)}`
            : "Contenido inicial del sitio: nadie lo ha cambiado todavía."
        }
      />
      {actionData?.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin/sitio", label: "Volver al contenido" }} />;
}
