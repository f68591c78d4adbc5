// Sign-in with OpenID Connect: authorization code flow with PKCE, state and nonce (openid-client).
// The same code serves Google, any other issuer, and the development provider on loopback.
import { createHmac, timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import type { VerifiedIdentity } from "./identity";
import { readCookie, serializeCookie } from "./session.server";

const TRANSACTION_MAX_AGE_S = 10 * 60;

interface OidcClientSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** The site's public origin; the callback is `${publicUrl}/auth/callback`. */
  publicUrl: URL;
  secret: string;
  secureCookies: boolean;
  /** Extra authorization parameters, such as Google's prompt=select_account. */
  extraParams?: Record<string, string>;
}

class SignInError extends Error {
  override name = "SignInError";
}

interface Transaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectTo: string | null;
  expiresAt: number;
}

export interface AuthService {
  /** Origins a sign-in form may be sent on to (Content-Security-Policy form-action). */
  formActionOrigins: string[];
  startSignIn(redirectTo: string | null): Promise<{ url: URL; setCookie: string }>;
  finishSignIn(
    request: Request,
  ): Promise<{ identity: VerifiedIdentity; redirectTo: string | null; setCookie: string }>;
  /** The Set-Cookie value that forgets a sign-in in progress (after a failure). */
  clearTransaction(): string;
}

function transactionCookieName(secure: boolean): string {
  return secure ? "__Host-ayllu_signin" : "ayllu_signin";
}

export function signValue(value: string, secret: string): string {
  const mac = createHmac("sha256", secret).update(value).digest("base64url");
  return `${Buffer.from(value).toString("base64url")}.${mac}`;
}

export function unsignValue(signed: string, secret: string): string | null {
  const [body, mac] = signed.split(".");
  if (!body || !mac) return null;
  const value = Buffer.from(body, "base64url").toString();
  const expected = createHmac("sha256", secret).update(value).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value;
}

function isLoopback(url: URL): boolean {
  return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

export function createAuthService(settings: OidcClientSettings): AuthService {
  let discovered: Promise<client.Configuration> | null = null;
  const redirectUri = new URL("/auth/callback", settings.publicUrl).toString();
  const cookieName = transactionCookieName(settings.secureCookies);

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, {
        // Plain http is allowed only for a provider on this machine (the development one).
        execute:
          settings.issuer.protocol === "http:" && isLoopback(settings.issuer)
            ? [client.allowInsecureRequests]
            : [],
      })
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  }

  const clearCookie = () =>
    serializeCookie(cookieName, "", { secure: settings.secureCookies, maxAgeSeconds: 0 });

  return {
    formActionOrigins: [settings.issuer.origin],
    clearTransaction: clearCookie,

    async startSignIn(redirectTo) {
      const config = await configuration();
      const transaction: Transaction = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        redirectTo,
        expiresAt: Date.now() + TRANSACTION_MAX_AGE_S * 1000,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: "openid email profile",
        response_type: "code",
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
        code_challenge_method: "S256",
        ...settings.extraParams,
      });
      const setCookie = serializeCookie(
        cookieName,
        signValue(JSON.stringify(transaction), settings.secret),
        {
          secure: settings.secureCookies,
          maxAgeSeconds: TRANSACTION_MAX_AGE_S,
        },
      );
      return { url, setCookie };
    },

    async finishSignIn(request) {
      const raw = readCookie(request, cookieName);
      const json = raw ? unsignValue(raw, settings.secret) : null;
      if (!json) throw new SignInError("No hay un inicio de sesión en curso en este navegador");
      const transaction = JSON.parse(json) as Transaction;
      if (transaction.expiresAt < Date.now()) throw new SignInError("El inicio de sesión caducó");
      const config = await configuration();
      // The callback URL is rebuilt from PUBLIC_URL, never from the Host header.
      const requestUrl = new URL(request.url);
      const currentUrl = new URL(requestUrl.pathname + requestUrl.search, settings.publicUrl);
      let tokens;
      try {
        tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: transaction.codeVerifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new SignInError(
          `El proveedor de identidad rechazó el inicio de sesión: ${String(error)}`,
        );
      }
      const claims = tokens.claims();
      if (!claims) throw new SignInError("El proveedor no devolvió un ID token");
      const email = typeof claims.email === "string" ? claims.email.trim() : "";
      if (!email) throw new SignInError("El proveedor no compartió un correo electrónico");
      return {
        identity: {
          issuer: claims.iss,
          subject: claims.sub,
          email,
          emailVerified: claims.email_verified === true,
          name: typeof claims.name === "string" ? claims.name : null,
          picture: typeof claims.picture === "string" ? claims.picture : null,
        },
        redirectTo: transaction.redirectTo,
        setCookie: clearCookie(),
      };
    },
  };
}
