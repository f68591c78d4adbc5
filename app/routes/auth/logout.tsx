import { redirect } from "react-router";
import { destroySession } from "~/members/session.server";
import { readForm } from "~/kernel/read-form.server";
import type { Route } from "./+types/logout";
import { cookieSettings } from "~/flash.server";

// 'Cerrar Sesión': the session row is deleted, so the old cookie is useless from now on. The
// browser also forgets what the site stored on the device (an admin's offline check-in list and
// the service worker that keeps it, docs/decisions/019-check-in.md), so a shared phone keeps no
// participant's name once its admin has signed out.
export async function action({ request, context }: Route.ActionArgs) {
  await readForm(request);
  const setCookie = await destroySession(context.db, request, cookieSettings(context));
  return redirect("/", {
    headers: { "Set-Cookie": setCookie, "Clear-Site-Data": '"storage"' },
  });
}

export function loader() {
  return redirect("/");
}
