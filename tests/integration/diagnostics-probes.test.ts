// Diagnóstico's probes against the real part broken: an SMTP port nobody listens on, an SMTP
// server that refuses the credentials or never greets, an object store that stopped (or lacks the
// bucket, or does not know the key), a backup folder that is a file, a public address nobody
// answers at and one another server answers. Each line says what is wrong in words, with its
// fix; the page still answers 200. A probe that throws or never ends becomes a line that says so.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runProbes } from "~/diagnostics.server";
import { loadConfig } from "~/kernel/config.server";
import { smtpProblem, verifySmtp } from "~/mail/diagnostics.server";
import { probeObjectStore } from "~/uploads/object-storage.server";
import { failOnConsoleError } from "../helpers/console";
import { ADMIN_EMAIL, createAdmin } from "../helpers/events";
import { startS3, type TestS3 } from "../helpers/s3";
import { createTestDatabase } from "../helpers/database";
import { startTestServer, TEST_ENV, type TestServer } from "../helpers/server";

failOnConsoleError();

/** A port on loopback that nobody listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The text of a page, without tags or React's comments. */
function textOf(html: string): string {
  return html
    .replaceAll("<!-- -->", "")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replace(/\s+/g, " ");
}

/** The text of the card of one line, by its key. */
function section(html: string, key: string): string {
  const start = html.indexOf(`aria-labelledby="diag-${key}"`);
  expect(start, `no hay una sección ${key}`).toBeGreaterThan(-1);
  return textOf(html.slice(start, html.indexOf("</section>", start)));
}

/**
 * The page as the admin sees it; `at` is where the server listens when PUBLIC_URL names an address
 * nobody (or somebody else) answers at.
 */
async function diagnostico(server: TestServer, at = server.url): Promise<string> {
  const { client } = await createAdmin(server);
  const page = await client.get(new URL("/admin/diagnostico", at).href);
  expect(page.status).toBe(200);
  return page.text;
}

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-sondas-"));
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

test("a closed SMTP port, a backup folder that is a file and a public address nobody answers at: each said in words", async () => {
  const smtpPort = await closedPort();
  const publicPort = await closedPort();
  const notAFolder = path.join(work, "copias");
  fs.writeFileSync(notAFolder, "no soy una carpeta");
  const port = await closedPort();
  const server = await startTestServer({
    ADMIN_EMAILS: ADMIN_EMAIL,
    PORT: String(port),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    BACKUP_DIR: notAFolder,
    PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
  });
  try {
    const page = await diagnostico(server, new URL(`http://127.0.0.1:${port}`));
    const mail = section(page, "correo");
    expect(mail).toContain("Correo Corregir");
    expect(mail).toContain(
      `No se pudo conectar con el servidor SMTP 127.0.0.1:${smtpPort}: nadie responde en ese puerto`,
    );
    expect(mail).toContain("bloquean las conexiones salientes a los puertos 25, 465 y 587");
    // The outbox's facts stay.
    expect(mail).toMatch(/Correos en cola \d+/);

    const copies = section(page, "copias");
    expect(copies).toContain("Copias de seguridad Corregir");
    expect(copies).toMatch(/Se puede escribir no \(E[A-Z]+\)/);
    expect(copies).toContain("BACKUP_DIR apunta a un archivo, no a una carpeta");

    // Not reaching itself is a warning: visitors may reach it where the server itself cannot.
    const address = section(page, "direccion");
    expect(address).toContain("Dirección pública Revisar");
    expect(address).toContain(
      `Desde el propio servidor no se llega a http://127.0.0.1:${publicPort}: nadie responde en ese puerto`,
    );
    expect(address).toContain("Si desde tu teléfono");
  } finally {
    await server.close();
  }
});

test("an SMTP server that refuses the credentials, and another server at the public address", async () => {
  const smtp = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(new Error("Usuario o clave incorrectos"));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as net.AddressInfo).port;
  const other = http.createServer((_req, res) => res.end("otro sitio"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const otherPort = (other.address() as net.AddressInfo).port;
  const port = await closedPort();
  const server = await startTestServer({
    ADMIN_EMAILS: ADMIN_EMAIL,
    PORT: String(port),
    SMTP_URL: `smtp://ayllu:equivocada@127.0.0.1:${smtpPort}`,
    PUBLIC_URL: `http://127.0.0.1:${otherPort}`,
  });
  try {
    const page = await diagnostico(server, new URL(`http://127.0.0.1:${port}`));
    const mail = section(page, "correo");
    expect(mail).toContain("Correo Corregir");
    expect(mail).toContain(
      `El servidor SMTP 127.0.0.1:${smtpPort} rechazó el usuario o la clave (535)`,
    );
    const address = section(page, "direccion");
    expect(address).toContain("Dirección pública Revisar");
    expect(address).toContain("responde otro servidor (200)");
    expect(address).toContain("no este sitio");
  } finally {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test("the object store is written, read back and deleted; stopped, the page says it does not answer", async () => {
  const s3: TestS3 = await startS3();
  const server = await startTestServer({
    ...s3.env(),
    S3_PRIVATE_BUCKET: "ayllu-privado",
    ADMIN_EMAILS: ADMIN_EMAIL,
  });
  try {
    let storage = section(await diagnostico(server), "almacenamiento");
    expect(storage).toContain("Almacenamiento Bien");
    expect(storage).toContain("Escribir, leer y borrar en ayllu-fotos sí");
    expect(storage).toContain("Escribir, leer y borrar en ayllu-privado sí");
    await s3.stop();
    storage = section(await diagnostico(server), "almacenamiento");
    expect(storage).toContain("Almacenamiento Corregir");
    expect(storage).toContain("Escribir, leer y borrar en ayllu-fotos falló");
    expect(storage).toContain(
      `El almacén de objetos ${s3.endpoint} no responde: nadie escucha en esa dirección`,
    );
    expect(storage).toContain("Las fotos publicadas no se ven");
  } finally {
    await server.close();
    await s3.close();
  }
});

test("a probe that throws or never answers becomes a line that says so, and the others still run", async () => {
  const database = await createTestDatabase();
  try {
    const lines = await runProbes(
      [
        {
          key: "rota",
          title: "Rota",
          run: () => Promise.reject(new Error("se rompió")),
        },
        {
          key: "colgada",
          title: "Colgada",
          timeoutMs: 200,
          run: () => new Promise(() => {}),
        },
        {
          key: "buena",
          title: "Buena",
          run: async () => ({ key: "buena", title: "Buena", state: "bien", facts: [], advice: [] }),
        },
      ],
      {
        db: database.db,
        config: loadConfig(TEST_ENV),
        now: new Date(),
        seen: {
          clientIp: "127.0.0.1",
          peerIp: "127.0.0.1",
          protocol: "http",
          host: "127.0.0.1",
          authority: "127.0.0.1",
          forwardedFor: null,
          forwardedProto: null,
          forwardedHost: null,
        },
      },
    );
    expect(lines.map((line) => [line.key, line.state])).toEqual([
      ["rota", "mal"],
      ["colgada", "mal"],
      ["buena", "bien"],
    ]);
    expect(lines[0]!.advice[0]).toContain("La comprobación de «Rota» falló: se rompió");
    expect(lines[1]!.advice[0]).toContain(
      "La comprobación de «Colgada» no terminó en 0,2 segundos",
    );
  } finally {
    await database.close();
  }
});

test("an SMTP server that accepts the connection but never greets: the probe says it did not answer in time", async () => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as net.AddressInfo;
  try {
    const error = await verifySmtp(`smtp://127.0.0.1:${port}`);
    expect(error).not.toBeNull();
    expect(smtpProblem(error, `127.0.0.1:${port}`)).toContain(
      `El servidor SMTP 127.0.0.1:${port} no respondió en 5 segundos`,
    );
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

test("the store's probe names a missing bucket and a key the store does not know", async () => {
  const s3 = await startS3();
  try {
    const settings = loadConfig({ ...TEST_ENV, ...s3.env() }).objectStore!;
    const [missing] = await probeObjectStore({ ...settings, bucket: "no-existe" });
    expect(missing!.problem).toContain("S3_BUCKET: el bucket «no-existe» no existe");
    const [unknown] = await probeObjectStore({ ...settings, accessKeyId: "OTRA" });
    expect(unknown!.problem).toContain(
      "S3_ACCESS_KEY_ID: el almacén de objetos no conoce esta clave",
    );
    const [fine] = await probeObjectStore(settings);
    expect(fine!.problem).toBeNull();
  } finally {
    await s3.close();
  }
});
