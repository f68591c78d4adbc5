// The development sign-in provider: a real OpenID Provider (oidc-provider), mounted on this
// server under /__dev/oidc, that lets a person sign in as any e-mail. It is never started in
// production (app/kernel/config.server.ts refuses to start without a real provider there).
//
// It keeps its sign-ins (interactions, codes, the accounts typed in) and its signing key in
// memory. With several worker processes (WEB_CONCURRENCY) each step of a sign-in may reach
// another worker, so then the cluster's primary process runs the one provider on a loopback port
// (server.js) and every worker forwards /__dev/oidc to it.
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express, type RequestHandler } from "express";
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";

export const DEV_PROVIDER_PATH = "/__dev/oidc";
const DEV_CLIENT_ID = "ayllu-dev";

interface DevAccount {
  email: string;
  name: string;
  emailVerified: boolean;
}

interface DevProvider {
  issuer: URL;
  clientId: string;
  clientSecret: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(nonce: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#0b1020;color:#f4f6fb;display:grid;place-items:center;min-height:100vh;margin:0;padding:1rem}
main{background:#161d33;border:1px solid #2c3760;border-radius:16px;padding:2rem;max-width:26rem;width:100%}
h1{font-size:1.4rem;margin:0 0 .5rem}p{color:#c5cbe0;line-height:1.5}label{display:block;margin:1rem 0 .35rem}
input[type=email],input[type=text]{width:100%;box-sizing:border-box;padding:.75rem;border-radius:8px;border:1px solid #55608a;background:#0b1020;color:#fff;font-size:1rem}
.check{display:flex;gap:.5rem;align-items:center}.check label{margin:0}
button{margin-top:1.5rem;width:100%;min-height:44px;border:0;border-radius:999px;background:#7dd3fc;color:#0b1020;font-weight:700;font-size:1rem;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #fbbf24;outline-offset:2px}
.error{color:#fecaca}
</style></head><body><main>${body}</main></body></html>`;
}

/** The site's client secret at the provider: the same in every process that shares `secret`. */
function clientSecretFor(secret: string): string {
  return createHmac("sha256", secret).update("ayllu-dev-oidc-client").digest("base64url");
}

/**
 * Mounts the development provider on `app`; `publicUrl` is the site's own origin and `secret`
 * the session secret (SESSION_SECRET, shared by a cluster's processes). With `sharedPort`, the
 * provider is the one the cluster's primary serves on that loopback port, and requests under
 * /__dev/oidc go there. The provider (its module and signing key) is made on first use, so it
 * costs nothing at start-up.
 */
export function mountDevProvider(
  app: Express,
  publicUrl: URL,
  options: { secret: string; sharedPort?: number },
): DevProvider {
  const issuer = new URL(DEV_PROVIDER_PATH, publicUrl);
  const clientSecret = clientSecretFor(options.secret);
  if (options.sharedPort) app.use(DEV_PROVIDER_PATH, forwardTo(options.sharedPort, publicUrl));
  else providerRoutes(app, publicUrl, clientSecret);
  return { issuer, clientId: DEV_CLIENT_ID, clientSecret };
}

/** What a worker tells the primary's provider, which serves no one else. */
const PUBLIC_URL_HEADER = "x-ayllu-public-url";
const NONCE_HEADER = "x-ayllu-csp-nonce";
/** Headers about one connection, not the message: each hop has its own. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

/** Forwards a request to the provider on the primary's loopback `port` and its answer back. */
function forwardTo(port: number, publicUrl: URL): RequestHandler {
  return (req, res, next) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers))
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    // The page's styles carry this worker's nonce, the one its Content-Security-Policy names.
    headers[NONCE_HEADER] = String(res.locals.cspNonce ?? "");
    headers[PUBLIC_URL_HEADER] = publicUrl.href;
    const upstream = http.request(
      { host: "127.0.0.1", port, method: req.method, path: req.originalUrl, headers },
      (answer) => {
        res.status(answer.statusCode ?? 502);
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
        answer.pipe(res);
      },
    );
    upstream.on("error", next);
    req.pipe(upstream);
  };
}

/**
 * Serves the development provider on a loopback port for a cluster's workers (server.js, in the
 * primary process): one provider holds every sign-in, whichever worker each step reaches.
 */
export async function serveDevProviderToWorkers(secret: string): Promise<{ port: number }> {
  const app = express();
  app.disable("x-powered-by");
  const clientSecret = clientSecretFor(secret);
  // The site's public URL is known once a worker listens (PORT=0 picks the port then); every
  // worker sends the same one.
  let site: { url: string; routes: Express } | null = null;
  app.use((req, res, next) => {
    const url = req.get(PUBLIC_URL_HEADER);
    if (!url) return next();
    if (!site) {
      const routes = express();
      providerRoutes(routes, new URL(url), clientSecret);
      site = { url, routes };
    }
    if (site.url !== url) return next();
    res.locals.cspNonce = req.get(NONCE_HEADER) ?? "";
    site.routes(req, res, next);
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return { port: (server.address() as AddressInfo).port };
}

/** The provider's own routes, under /__dev/oidc on `app`. */
function providerRoutes(app: Express, publicUrl: URL, clientSecret: string): void {
  const issuer = new URL(DEV_PROVIDER_PATH, publicUrl);
  const accounts = new Map<string, DevAccount>();

  const configuration: Configuration = {
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [new URL("/auth/callback", publicUrl).toString()],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    features: { devInteractions: { enabled: false } },
    // Like Google: the e-mail and name travel in the ID token itself.
    conformIdTokenClaims: false,
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    pkce: { required: () => true },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) =>
        `${DEV_PROVIDER_PATH}/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name,
          };
        },
      };
    },
    // The development client is first-party: consent is granted without asking.
    async loadExistingGrant(ctx) {
      const oidc = ctx.oidc;
      const grantId =
        oidc.result?.consent?.grantId || oidc.session?.grantIdFor(oidc.client!.clientId);
      if (grantId) {
        const existing = await oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new oidc.provider.Grant({
        clientId: oidc.client!.clientId,
        accountId: oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = page(
        "",
        "Error",
        `<h1>Error del proveedor de desarrollo</h1><p class="error">${escapeHtml(String(out.error_description ?? out.error))}</p>`,
      );
    },
  };
  let pending: Promise<{ provider: Provider; handle: ReturnType<Provider["callback"]> }> | null =
    null;
  const getProvider = () =>
    (pending ??= (async () => {
      const { default: OidcProvider } = await import("oidc-provider");
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const jwk = { ...privateKey.export({ format: "jwk" }), kid: "dev", use: "sig", alg: "RS256" };
      const provider = new OidcProvider(issuer.toString(), {
        ...configuration,
        jwks: { keys: [jwk as never] },
      });
      provider.on("server_error", (_ctx, error) => console.error("[dev-oidc]", error));
      return { provider, handle: provider.callback() };
    })());

  const form = express.urlencoded({ extended: false, limit: "4kb" });

  app.get(`${DEV_PROVIDER_PATH}/interaction/:uid`, async (req, res, next) => {
    try {
      const details = await (await getProvider()).provider.interactionDetails(req, res);
      const nonce = String(res.locals.cspNonce ?? "");
      res.type("html").send(
        page(
          nonce,
          "Proveedor de desarrollo",
          `<h1>Proveedor de inicio de sesión de desarrollo</h1>
<p>Este proveedor solo existe en desarrollo. Escribe cualquier correo para entrar como esa persona.</p>
<form method="post" action="${DEV_PROVIDER_PATH}/interaction/${escapeHtml(details.uid)}/login">
<label for="email">Correo electrónico</label>
<input id="email" name="email" type="email" required autocomplete="email" autofocus>
<label for="name">Nombre de la cuenta (opcional)</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="100">
<label for="subject">Identificador de la cuenta (sub, opcional)</label>
<input id="subject" name="subject" type="text" maxlength="255" aria-describedby="subject-help">
<p id="subject-help">Para entrar como un miembro importado de Firebase, escribe el rawId de su cuenta de Google.</p>
<p class="check"><input id="verified" name="verified" type="checkbox" value="1" checked><label for="verified">Correo verificado</label></p>
<button type="submit">Continuar</button>
</form>`,
        ),
      );
    } catch (error) {
      next(error);
    }
  });

  app.post(`${DEV_PROVIDER_PATH}/interaction/:uid/login`, form, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 200) {
        res
          .status(400)
          .type("html")
          .send(
            page(
              String(res.locals.cspNonce ?? ""),
              "Correo no válido",
              `<h1>Correo no válido</h1><p class="error">Escribe un correo electrónico válido y vuelve a intentarlo.</p>`,
            ),
          );
        return;
      }
      const name =
        typeof body.name === "string" && body.name.trim()
          ? body.name.trim().slice(0, 100)
          : email.split("@")[0]!;
      // A chosen subject lets a developer be an imported member's Google account (its rawId).
      const subject = typeof body.subject === "string" ? body.subject.trim() : "";
      if (subject && !/^[\x21-\x7e]{1,255}$/.test(subject)) {
        res
          .status(400)
          .type("html")
          .send(
            page(
              String(res.locals.cspNonce ?? ""),
              "Identificador no válido",
              `<h1>Identificador no válido</h1><p class="error">El identificador solo puede tener letras, números y signos visibles, sin espacios (máximo 255).</p>`,
            ),
          );
        return;
      }
      const accountId = subject || `dev:${email}`;
      accounts.set(accountId, { email, name, emailVerified: body.verified === "1" });
      await (
        await getProvider()
      ).provider.interactionFinished(
        req,
        res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      next(error);
    }
  });

  app.use(DEV_PROVIDER_PATH, (req, res, next) => {
    getProvider().then(({ handle }) => handle(req, res), next);
  });
}
