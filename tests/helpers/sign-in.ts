// Signing in over HTTP through the real development OpenID provider, step by step; and, for tests
// that are not about signing in, the same outcome made directly in the database.
import { DEV_PROVIDER_PATH } from "~/members/dev-provider.server";
import { createSession, sessionCookieName } from "~/members/session.server";
import {
  hasCompletedProfile,
  completeProfile,
  signInWithIdentity,
  type VerifiedIdentity,
} from "~/members/user.server";
import { ProfileSchema } from "~/members/schemas";
import { BrowserClient, pathOf, type Reply } from "./browser-client";
import { serverAt, type ReachableServer } from "./server";

export interface DevAccount {
  email: string;
  name?: string;
  verified?: boolean;
  redirectTo?: string;
  /** The account's subject (`sub`), as the development provider's form lets a tester choose. */
  subject?: string;
}

/** Runs the flow up to the moment the provider sends the browser back to /auth/callback. */
export async function reachCallback(client: BrowserClient, account: DevAccount): Promise<string> {
  const start = await client.post(
    "/login",
    account.redirectTo ? { redirectTo: account.redirectTo } : {},
  );
  if (start.status !== 302 || !start.location)
    throw new Error(`POST /login respondió ${start.status}`);
  const hops = await client.follow(start);
  const page = hops.at(-1)!;
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
  if (!action)
    throw new Error(`No apareció el formulario del proveedor: ${page.status} ${page.url}`);
  const fields: Record<string, string> = { email: account.email, name: account.name ?? "" };
  if (account.verified !== false) fields.verified = "1";
  if (account.subject !== undefined) fields.subject = account.subject;
  let reply: Reply = await client.post(action.replaceAll("&amp;", "&"), fields);
  while (reply.location && !new URL(reply.location).pathname.startsWith("/auth/callback")) {
    reply = await client.get(reply.location);
  }
  if (!reply.location)
    throw new Error(
      `El proveedor no redirigió al sitio: ${reply.status} ${reply.text.slice(0, 200)}`,
    );
  return reply.location;
}

/** Signs in and returns where the site sent the browser afterwards (a path). */
export async function signIn(client: BrowserClient, account: DevAccount): Promise<string | null> {
  const callback = await reachCallback(client, account);
  const reply = await client.get(callback);
  if (reply.status !== 302) throw new Error(`/auth/callback respondió ${reply.status}`);
  return pathOf(reply.location);
}

/** The additional data a test member gives (the form of §2, as posted). */
function memberProfile(name: string) {
  return {
    nombreCompleto: name,
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    ciudad: "La Paz",
    genero: "Otro",
    habilidades: "",
  };
}

/**
 * What the site receives from the development provider once its form is sent: the provider
 * lower-cases the e-mail, names the account after it when no name is given, and uses
 * `dev:<e-mail>` as the subject (app/members/dev-provider.server.ts).
 */
function devIdentity(publicUrl: URL, account: DevAccount): VerifiedIdentity {
  const email = account.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`Correo no válido: ${account.email}`);
  const name = account.name?.trim();
  return {
    issuer: new URL(DEV_PROVIDER_PATH, publicUrl).toString(),
    subject: `dev:${email}`,
    email,
    emailVerified: account.verified !== false,
    name: name ? name.slice(0, 100) : email.split("@")[0]!,
    picture: null,
  };
}

/**
 * The state the full flow leaves behind, made with the same model functions the callback calls:
 * the profile (an admin when ADMIN_EMAILS lists the e-mail) and a new session whose cookie the
 * client holds. With `profile`, also what the additional data form saves, unless it was saved.
 */
async function openSessionDirectly(
  server: ReachableServer,
  client: BrowserClient,
  account: { email: string; name: string },
  profile: ReturnType<typeof memberProfile> | null,
) {
  const { db, config } = server;
  const { user } = await signInWithIdentity(
    db,
    devIdentity(config.publicUrl, account),
    config.adminEmails,
  );
  if (profile && !hasCompletedProfile(user)) {
    await completeProfile(db, user.id, ProfileSchema.parse(profile));
  }
  const settings = { secure: config.publicUrl.protocol === "https:" };
  const setCookie = await createSession(db, user.id, settings);
  const pair = setCookie.split(";")[0]!;
  client.cookies.set(sessionCookieName(settings), pair.slice(pair.indexOf("=") + 1));
}

/** A server this test process started, whose database a fixture can reach. */
function reachable(base: URL): ReachableServer | null {
  const server = serverAt(base);
  return server && server.config.oidc.kind === "development" ? server : null;
}

/**
 * Someone signed in for the first time: a profile without the additional data. Made directly in
 * the database of a server this process started (sign-in.test.ts proves the flow itself), through
 * the provider on a server in another process.
 */
export async function signInNewcomer(
  base: URL,
  email: string,
  name = "Persona Nueva",
): Promise<BrowserClient> {
  const client = new BrowserClient(base);
  const server = reachable(base);
  if (server) {
    await openSessionDirectly(server, client, { email, name }, null);
    return client;
  }
  const landing = await signIn(client, { email, name });
  if (landing !== "/aditionaldata") throw new Error(`Se esperaba /aditionaldata, llegó ${landing}`);
  return client;
}

/**
 * A member who has signed in and completed the additional data form, with no message pending;
 * made directly or through the provider as signInNewcomer is.
 */
export async function signInMember(
  base: URL,
  email: string,
  name = "Miembro de Prueba",
): Promise<BrowserClient> {
  const client = new BrowserClient(base);
  const server = reachable(base);
  if (server) {
    await openSessionDirectly(server, client, { email, name }, memberProfile(name));
    return client;
  }
  await signIn(client, { email, name });
  const saved = await client.post("/aditionaldata", memberProfile(name));
  if (saved.status !== 302) throw new Error(`No se pudo completar el perfil: ${saved.status}`);
  // Takes the "saved" message, as the direct way leaves none.
  await client.follow(saved);
  return client;
}
