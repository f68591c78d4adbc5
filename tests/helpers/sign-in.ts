// Signing in through the real development OpenID provider, step by step, over HTTP.
import { BrowserClient, pathOf, type Reply } from "./browser-client";

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

/** A member who has signed in and completed the additional data form. */
export async function signInMember(
  base: URL,
  email: string,
  name = "Miembro de Prueba",
): Promise<BrowserClient> {
  const client = new BrowserClient(base);
  await signIn(client, { email, name });
  const saved = await client.post("/aditionaldata", {
    nombreCompleto: name,
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    ciudad: "La Paz",
    genero: "Otro",
    habilidades: "",
  });
  if (saved.status !== 302) throw new Error(`No se pudo completar el perfil: ${saved.status}`);
  return client;
}
