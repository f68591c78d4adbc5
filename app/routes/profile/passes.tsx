// /mis-entradas: the signed-in member's passes for the door (QR and typed code), with each event's
// sessions to come, its place and whether the place is confirmed, paid or waiting for a payment;
// their waiting lists and their certificates. The one signed-in page kept on the phone, by a
// service worker of its own, so that it opens at a door without signal
// (docs/decisions/050-mis-entradas-offline.md). The server still never stores it (no-store).
import { data, isRouteErrorResponse } from "react-router";
import { ErrorPage } from "~/error-page";
import { loadMyPasses } from "~/attendance/my-passes.server";
import { MyCertificates, MyPassList, MyWaitingLists } from "~/attendance/components/my-passes";
import { PASSES_MANIFEST, useOfflinePasses } from "~/attendance/use-offline-passes";
import { requireUser } from "~/guards.server";
import { cookieSettings } from "~/flash.server";
import { formatDateTime } from "~/kernel/time";
import { useOwnDocument } from "~/kernel/use-own-document";
import { markDeviceCopy } from "~/members/device-copy.server";
import { MESSAGES } from "~/messages";
import { site } from "~/site/copy/site";
import { AlertDialog } from "~/ui/dialog";
import type { Route } from "./+types/passes";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const now = context.now();
  const mine = await loadMyPasses(context.db, user, {
    now,
    secret: context.config.sessionSecret,
    publicUrl: context.config.publicUrl,
  });
  const headers = new Headers({ "Cache-Control": "no-store" });
  // Whose passes this device may keep: another member's sign-in here makes it forget them.
  headers.append(
    "Set-Cookie",
    markDeviceCopy(context.config.sessionSecret, user.id, cookieSettings(context)),
  );
  return data(
    { ...mine, updatedAt: now.toISOString(), timeZone: context.config.siteTimezone },
    { headers },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta() {
  return [
    { title: `Mis entradas — ${site.name}` },
    { name: "robots", content: "noindex" },
    { tagName: "link", rel: "manifest", href: PASSES_MANIFEST },
    { tagName: "link", rel: "apple-touch-icon", href: "/icons/logo-192.png" },
  ];
}

export default function Passes({ loaderData }: Route.ComponentProps) {
  const { passes, waiting, certificates, updatedAt, timeZone } = loaderData;
  useOwnDocument();
  const phone = useOfflinePasses();
  return (
    <div className="page page-narrow passes">
      <h1>Mis entradas</h1>
      <div className="passes-status" role="status">
        <p>
          {phone.online ? "Actualizado: " : "Sin conexión. Datos guardados en este teléfono el "}
          <time dateTime={updatedAt}>{formatDateTime(updatedAt, timeZone)}</time>
        </p>
        {phone.online ? (
          <p className="muted">
            Esta página queda guardada en tu teléfono: ábrela en la puerta aunque no haya señal.
          </p>
        ) : null}
      </div>
      {phone.canInstall ? (
        <p>
          <button type="button" className="button button-secondary" onClick={phone.install}>
            Añadir a la pantalla de inicio
          </button>
        </p>
      ) : phone.iosHint ? (
        <p className="muted">
          Para tenerla en la pantalla de inicio: en Safari, toca Compartir y luego «Agregar a
          inicio».
        </p>
      ) : null}
      <MyPassList passes={passes} timeZone={timeZone} />
      <MyWaitingLists waiting={waiting} timeZone={timeZone} />
      <MyCertificates certificates={certificates} timeZone={timeZone} />
      {certificates.length > 0 && !phone.online ? (
        <p className="muted">Para descargar un certificado hace falta conexión.</p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage error={error} failure={{ title: "Mis entradas", text: MESSAGES.passesCouldNotLoad }}>
      {isRouteErrorResponse(error) ? null : <AlertDialog message={MESSAGES.passesLoadFailed} />}
    </ErrorPage>
  );
}
