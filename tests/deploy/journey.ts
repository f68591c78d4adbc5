// The deploy test's visits, over HTTPS through Caddy as a browser would make them: every host name
// (the site's domain, the sign-in provider's) is this machine, and Caddy's local CA is trusted.
//   tsx tests/deploy/journey.ts setup|check|maintenance   (SITE, ISSUER_HOST, CA_FILE, ADMIN_EMAIL, HTTP_URL)
// `setup` signs an admin in through the OpenID provider, publishes an event with an uploaded photo
// and has a member join it; `check` proves it is all still there (after a backup, an upgrade
// rolled back…); each prints what it did. Exits 1 at the first thing that is not as it should be.
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type { LookupFunction } from "node:net";
import sharp from "sharp";

const site = new URL(process.env.SITE ?? "https://ayllu.test:3444");
const ca = fs.readFileSync(process.env.CA_FILE ?? "ca/root.crt");
const adminEmail = process.env.ADMIN_EMAIL ?? "jefa@ayllu.test";
const stateFile = process.env.STATE_FILE ?? "journey.json";

/** Every name is this machine: Caddy answers for the site and for the provider. */
const lookup: LookupFunction = (_host, options, callback) => {
  if (typeof options === "object" && options.all)
    callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
};
const agent = new https.Agent({ ca, lookup, keepAlive: false });

interface Reply {
  status: number;
  location: string | null;
  text: string;
  headers: http.IncomingHttpHeaders;
}

class Browser {
  cookies = new Map<string, Map<string, string>>();

  async request(method: string, target: string | URL, body?: Buffer, type?: string) {
    const url = new URL(target, site);
    const jar = this.cookies.get(url.host) ?? new Map<string, string>();
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body) {
      headers["content-type"] = type ?? "application/x-www-form-urlencoded";
      headers["content-length"] = String(body.length);
      headers.origin = url.origin;
    }
    const reply = await new Promise<Reply>((resolve, reject) => {
      const request = (url.protocol === "https:" ? https : http).request(
        url,
        { method, headers, agent: url.protocol === "https:" ? agent : undefined, lookup },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (c: Buffer) => chunks.push(c));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              location: response.headers.location
                ? new URL(response.headers.location, url).href
                : null,
              text: Buffer.concat(chunks).toString("utf8"),
              headers: response.headers,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    for (const line of [reply.headers["set-cookie"] ?? []].flat()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const value = pair!.slice(eq + 1);
      if (value === "" || /max-age=0/i.test(line)) jar.delete(pair!.slice(0, eq));
      else jar.set(pair!.slice(0, eq), value);
    }
    this.cookies.set(url.host, jar);
    return reply;
  }

  get(target: string | URL) {
    return this.request("GET", target);
  }

  post(target: string | URL, fields: Record<string, string>) {
    return this.request("POST", target, Buffer.from(new URLSearchParams(fields).toString()));
  }

  /** Follows redirects from `reply` until a page that is not one. */
  async follow(reply: Reply): Promise<Reply> {
    let current = reply;
    for (let hops = 0; current.location && hops < 10; hops++)
      current = await this.get(current.location);
    return current;
  }
}

function expect(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(what);
}

/** Signs in through the provider (via Caddy) and completes the profile when the site asks. */
async function signIn(email: string, name: string): Promise<Browser> {
  const browser = new Browser();
  const start = await browser.post("/login", {});
  expect(start.status === 302 && start.location, `POST /login respondió ${start.status}`);
  expect(
    new URL(start.location).host === (process.env.ISSUER_HOST ?? "caddy:3445"),
    `El inicio de sesión fue a ${start.location}`,
  );
  const form = await browser.follow(start);
  const action = /action="([^"]+)"/.exec(form.text)?.[1];
  expect(action, `El proveedor no mostró su formulario: ${form.status} ${form.text.slice(0, 200)}`);
  const issuer = new URL(start.location).origin;
  let reply = await browser.post(new URL(action, issuer), { email });
  while (reply.location && !reply.location.startsWith(`${site.origin}/auth/callback`))
    reply = await browser.get(reply.location);
  expect(
    reply.location,
    `El proveedor no volvió al sitio: ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  const callback = await browser.get(reply.location);
  expect(
    callback.status === 302,
    `/auth/callback respondió ${callback.status}: ${callback.text.slice(0, 300)}`,
  );
  if (callback.location && new URL(callback.location).pathname === "/aditionaldata") {
    const saved = await browser.post("/aditionaldata", {
      nombreCompleto: name,
      fechaNacimiento: "1990-05-17",
      pais: "Bolivia",
      ciudad: "La Paz",
      genero: "Otro",
      habilidades: "",
    });
    expect(saved.status === 302 || saved.status === 303, `El perfil respondió ${saved.status}`);
  }
  return browser;
}

async function setup() {
  // HTTP → HTTPS, and HTTP/2 over TLS.
  if (process.env.HTTP_URL) {
    const plain = await new Browser().get(process.env.HTTP_URL);
    expect(
      plain.status === 308 && plain.location?.startsWith("https://"),
      `http:// respondió ${plain.status} ${plain.location}`,
    );
  }
  const session = http2.connect(site.origin, { ca, lookup } as http2.SecureClientSessionOptions);
  await new Promise<void>((resolve, reject) => {
    session.once("connect", () => resolve());
    session.once("error", reject);
  });
  expect(session.alpnProtocol === "h2", `ALPN ${session.alpnProtocol}`);
  session.close();

  const admin = await signIn(adminEmail, "Jefa Admin");
  const adminPage = await admin.get("/admin");
  expect(adminPage.status === 200, `/admin respondió ${adminPage.status} a ${adminEmail}`);

  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();
  const boundary = "----prueba-despliegue";
  const multipart = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="imagen"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await admin.request(
    "POST",
    "/subidas",
    multipart,
    `multipart/form-data; boundary=${boundary}`,
  );
  expect(
    uploaded.status === 200,
    `La subida respondió ${uploaded.status}: ${uploaded.text.slice(0, 200)}`,
  );
  const image = (JSON.parse(uploaded.text) as { images: { path: string }[] }).images[0]!.path;

  const name = `Taller de despliegue ${Date.now()}`;
  const published = await admin.post("/admin", {
    intent: "publish",
    nombreEvento: name,
    ubicacionEvento: "Bolivia, La Paz",
    tipoEvento: "Presencial",
    fechaEvento: "2030-12-06",
    horaEvento: "19:00",
    imagenEnlace: new URL(image, site).href,
    ubicacionEspecifica: "Obrajes C2",
    descripcion: "Publicado por la prueba de despliegue.",
  });
  expect(
    published.status === 302 || published.status === 303,
    `Publicar respondió ${published.status}: ${published.text.slice(0, 300)}`,
  );
  const list = await admin.get("/eventos");
  const eventId =
    new RegExp(`/detalles/([0-9a-f-]{36})"[^>]*>[^<]*${name}`).exec(list.text)?.[1] ??
    /\/detalles\/([0-9a-f-]{36})/.exec(list.text.slice(list.text.indexOf(name) - 2000))?.[1];
  expect(eventId, "El evento publicado no aparece en /eventos");

  const member = await signIn("miembro@ayllu.test", "Miembro Prueba");
  const joined = await member.post(`/detalles/${eventId}`, { intent: "join" });
  expect(
    joined.status === 302 || joined.status === 303 || joined.status === 200,
    `Unirse respondió ${joined.status}`,
  );
  fs.writeFileSync(stateFile, JSON.stringify({ eventId, name, image }));
  console.log(
    `Sesión por OIDC a través de Caddy, evento «${name}» publicado con foto ${image}, un miembro se unió.`,
  );
}

async function check() {
  const { eventId, name, image } = JSON.parse(fs.readFileSync(stateFile, "utf8")) as Record<
    string,
    string
  >;
  const visitor = new Browser();
  const detail = await visitor.get(`/detalles/${eventId}`);
  expect(
    detail.status === 200 && detail.text.includes(name!),
    `/detalles/${eventId} respondió ${detail.status}`,
  );
  const photo = await visitor.get(image!);
  expect(
    photo.status === 200 && photo.headers["content-type"] === "image/webp",
    `La foto respondió ${photo.status}`,
  );
  const admin = await signIn(adminEmail, "Jefa Admin");
  const participants = await admin.get(`/admin/eventos/${eventId}/participantes`);
  expect(
    participants.text.includes("miembro@ayllu.test"),
    "El miembro ya no figura entre los participantes",
  );
  console.log(`El evento, su participante y su foto siguen ahí; el inicio de sesión funciona.`);
}

/**
 * While the site is in maintenance every request, a read as much as a write, gets the Spanish
 * maintenance page: during an upgrade a version on trial must never show its own error page.
 */
async function maintenance() {
  const visitor = new Browser();
  const write = await visitor.post("/login", {});
  expect(
    write.status === 503 && write.text.includes("Estamos actualizando el sitio"),
    `Una escritura en mantenimiento respondió ${write.status}`,
  );
  const read = await visitor.request("GET", "/eventos");
  expect(
    read.status === 503 && read.text.includes("Estamos actualizando el sitio"),
    `Una lectura en mantenimiento respondió ${read.status}`,
  );
  console.log(
    "En mantenimiento, una escritura y una lectura reciben la página de mantenimiento (503).",
  );
}

const phase = process.argv[2];
const phases: Record<string, () => Promise<void>> = { setup, check, maintenance };
phases[phase ?? ""]!().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`FALLA (${phase}): ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
