// The deploy test's sign-in provider: a real OpenID Provider (oidc-provider) that the site reaches
// through Caddy over HTTPS, as it would reach Google. It runs in a container of the site's own
// image (which has oidc-provider) and signs in as whatever e-mail its form is given.
//   ISSUER=https://caddy:3445 CLIENT_ID=… CLIENT_SECRET=… REDIRECT_URI=… node issuer.mjs
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createRequire } from "node:module";

const require = createRequire("/app/package.json");
const { default: Provider } = await import(require.resolve("oidc-provider"));
const express = (await import(require.resolve("express"))).default;

const { ISSUER, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const provider = new Provider(ISSUER, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "k", use: "sig", alg: "RS256" }] },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: false } },
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }),
    };
  },
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
});
provider.proxy = true;

const app = express();
app.get("/interaction/:uid", async (req, res, next) => {
  try {
    const details = await provider.interactionDetails(req, res);
    res
      .type("html")
      .send(
        `<form method="post" action="/interaction/${details.uid}/login"><input name="email"><button>Entrar</button></form>`,
      );
  } catch (error) {
    next(error);
  }
});
app.post(
  "/interaction/:uid/login",
  express.urlencoded({ extended: false }),
  async (req, res, next) => {
    try {
      const email = String(req.body.email ?? "").toLowerCase();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: email } },
        {
          mergeWithLastSubmission: false,
        },
      );
    } catch (error) {
      next(error);
    }
  },
);
app.use(provider.callback());
app.listen(3000, "0.0.0.0", () => console.log(`Proveedor de prueba en ${ISSUER}`));
