import { redirect } from "react-router";
import { replaceSession } from "~/members/session.server";
import { afterSignIn } from "~/members/device-copy.server";
import { linkOptionsFor } from "~/members/account-link.server";
import { pathAfterSignIn, signInWithIdentity } from "~/members/user.server";
import type { Route } from "./+types/callback";
import { cookieSettings } from "~/flash.server";

// The identity provider sends the browser back here with a code; we trade it for a verified
// ID token, find or create the profile, and start a session with a new id.
export async function loader({ request, context }: Route.LoaderArgs) {
  const headers = new Headers();
  if (!context.auth) return redirect("/login?error=1");
  const auth = context.auth;
  try {
    const { identity, redirectTo, setCookie } = await auth.finishSignIn(request);
    headers.append("Set-Cookie", setCookie);
    const { user } = await signInWithIdentity(
      context.db,
      identity,
      context.config.adminEmails,
      linkOptionsFor(context.config.oidc),
    );
    const settings = cookieSettings(context);
    headers.append(
      "Set-Cookie",
      await replaceSession(context.db, request, user.id, settings, {
        maxPerAccount: context.config.sessionsPerAccount,
      }),
    );
    // Another member's passes kept on this device are forgotten (decision 050).
    return afterSignIn(
      redirect(pathAfterSignIn(user, redirectTo), { headers }),
      request,
      context.config.sessionSecret,
      user.id,
      settings,
    );
  } catch (error) {
    console.error("Inicio de sesión fallido:", error instanceof Error ? error.message : error);
    return redirect("/login?error=1", {
      headers: { "Set-Cookie": auth.clearTransaction() },
    });
  }
}
