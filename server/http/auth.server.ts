// Sign-in by OpenID Connect as the configuration says: the development provider, mounted on the
// site itself (any e-mail), or an external one (Google); null when the site signs in by e-mailed
// links only (docs/decisions/003-sign-in.md).
import type express from "express";
import type { Config } from "~/kernel/config.server";
import { createAuthService, type AuthService } from "~/members/oidc.server";

export async function authServiceFor(
  app: express.Express,
  config: Config,
  devProviderPort: number | undefined,
): Promise<AuthService | null> {
  const publicUrl = config.publicUrl;
  const secureCookies = publicUrl.protocol === "https:";
  if (config.oidc.kind === "development") {
    const { mountDevProvider } = await import("~/members/dev-provider.server");
    const dev = mountDevProvider(app, publicUrl, {
      secret: config.sessionSecret,
      sharedPort: devProviderPort,
    });
    return createAuthService({
      issuer: dev.issuer,
      clientId: dev.clientId,
      clientSecret: dev.clientSecret,
      publicUrl,
      secret: config.sessionSecret,
      secureCookies,
      // Always show the e-mail form, so that after signing out one can sign in as someone else.
      extraParams: { prompt: "login" },
    });
  } else if (config.oidc.kind === "external") {
    return createAuthService({
      issuer: new URL(config.oidc.issuer),
      clientId: config.oidc.clientId,
      clientSecret: config.oidc.clientSecret,
      publicUrl,
      secret: config.sessionSecret,
      secureCookies,
      extraParams:
        config.oidc.issuer === "https://accounts.google.com"
          ? { prompt: "select_account" }
          : undefined,
    });
  }
  return null;
}
