import { redirect } from "react-router";
import { destroySession } from "~/members/session.server";
import { forgetDeviceCopy } from "~/members/device-copy.server";
import { readForm } from "~/kernel/read-form.server";
import type { Route } from "./+types/logout";
import { cookieSettings } from "~/flash.server";

// 'Cerrar Sesión': the session row is deleted, so the old cookie is useless from now on. The
// browser also forgets what the site stored on the device (an admin's offline check-in list, a
// member's passes of /mis-entradas, and the service workers that keep them: decisions 019 and
// 050), so a shared phone keeps nothing of the person who signed out.
export async function action({ request, context }: Route.ActionArgs) {
  await readForm(request);
  const settings = cookieSettings(context);
  const setCookie = await destroySession(context.db, request, settings);
  return forgetDeviceCopy(redirect("/", { headers: { "Set-Cookie": setCookie } }), settings);
}

export function loader() {
  return redirect("/");
}
