// The top menu's 'Modo liviano' switch (decisions 049 and 077): a plain form, so it works without scripts.
// It remembers the choice for a year and goes back to the page it was pressed on.
import { data, redirect } from "react-router";
import { readForm } from "~/kernel/read-form.server";
import { cookieSettings } from "~/flash.server";
import { serializeCookie } from "~/members/session.server";
import { LIGHT_COOKIE } from "~/site/light-mode";
import { SITE_MESSAGES } from "~/site/messages";
import type { Route } from "./+types/light-mode";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** A path of this site to go back to; anything else (another site, a scheme) goes home. */
export function backTo(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  // No control characters (a header cannot carry them).
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return "/";
  return value;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const modes = form.getAll("modo");
  const mode = modes.length === 1 ? modes[0] : null;
  if (mode !== "liviano" && mode !== "normal") {
    throw data(SITE_MESSAGES.lightModeInvalid, { status: 400 });
  }
  const cookie = serializeCookie(LIGHT_COOKIE, mode === "liviano" ? "1" : "0", {
    ...cookieSettings(context),
    maxAgeSeconds: YEAR_SECONDS,
  });
  return redirect(backTo(form.get("volver")), { status: 303, headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/");
}
