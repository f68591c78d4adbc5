import { redirect } from "react-router";
import { cookieSettings } from "#server/auth/guards.server";
import { destroySession } from "#server/auth/session.server";
import { readForm } from "#server/http/read-form.server";
import type { Route } from "./+types/logout";

// 'Cerrar Sesión': the session row is deleted, so the old cookie is useless from now on.
export async function action({ request, context }: Route.ActionArgs) {
  await readForm(request);
  const setCookie = await destroySession(context.db, request, cookieSettings(context));
  return redirect("/", { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return redirect("/");
}
