// Mail's line of 'Diagnóstico': the SMTP server is asked to greet (and to accept the credentials,
// when SMTP_URL has them) without sending anything, and the outbox says what waits and what
// failed. Every failure is said in words, with its fix.
import nodemailer from "nodemailer";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import type { DiagnosticProbe, DiagnosticState } from "~/kernel/diagnostics";

/** How long the SMTP server has to answer the connection, and then to greet. */
export const SMTP_PROBE_MS = 5_000;

/** The words for a failed greeting or login with the SMTP server at `where` (host:port). */
export function smtpProblem(error: unknown, where: string): string {
  const e = (error ?? {}) as { code?: string; responseCode?: number; message?: string };
  const message = e.message ?? String(error);
  const cause = `${e.code ?? ""} ${message}`;
  const blocked =
    "Muchos proveedores de VPS (Hetzner, DigitalOcean, OVH, Contabo…) bloquean las conexiones salientes a los puertos 25, 465 y 587 hasta que se pide desbloquearlas: pruébalo desde el servidor con «nc -vz SERVIDOR PUERTO» (si no conecta ni ahí, es la red) y pide al proveedor que lo abra, o usa el puerto que te dé tu servicio de correo (por ejemplo 2525).";
  if (e.code === "EAUTH")
    return `El servidor SMTP ${where} rechazó el usuario o la clave (${e.responseCode ?? "sin código"}). Revisa el usuario y la clave en SMTP_URL (si la clave tiene @, : o /, escríbelos como %40, %3A y %2F); con Gmail o Microsoft hace falta una «contraseña de aplicación».`;
  if (e.code === "EDNS" || /ENOTFOUND|EAI_AGAIN/.test(cause))
    return `No se encontró el servidor SMTP ${where}: el nombre no existe en el DNS. Revisa que el nombre del servidor en SMTP_URL esté bien escrito.`;
  if (/ECONNREFUSED/.test(cause))
    return `No se pudo conectar con el servidor SMTP ${where}: nadie responde en ese puerto (la conexión fue rechazada). Revisa el servidor y el puerto de SMTP_URL (lo habitual es 587, o 465 con smtps://). ${blocked}`;
  if (e.code === "ETIMEDOUT" || /ETIMEDOUT|timeout/i.test(cause))
    return `El servidor SMTP ${where} no respondió en ${SMTP_PROBE_MS / 1000} segundos: la conexión no llega o queda sin respuesta. ${blocked}`;
  if (/EHOSTUNREACH|ENETUNREACH/.test(cause))
    return `No hay camino de red hasta el servidor SMTP ${where}. Revisa la red del servidor y SMTP_URL. ${blocked}`;
  if (e.code === "ETLS" || /SSL|TLS|certificate|wrong version number/i.test(cause))
    return `La conexión cifrada con el servidor SMTP ${where} falló (${message}). Con el puerto 465 usa smtps://; con 587 o 25, smtp:// (el cifrado se pide después con STARTTLS). Si el certificado del servidor no es válido, corrígelo en ese servidor.`;
  if (e.code === "ECONNECTION" || e.code === "ESOCKET")
    return `La conexión con el servidor SMTP ${where} se cortó (${message}). Revisa el servidor y el puerto de SMTP_URL. ${blocked}`;
  return `El servidor SMTP ${where} no aceptó la conexión: ${message}. Revisa SMTP_URL (servidor, puerto, usuario y clave).`;
}

/** Connects, greets and logs in (when SMTP_URL has a user) without sending; null when it all worked. */
export async function verifySmtp(url: string): Promise<unknown> {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: SMTP_PROBE_MS,
    greetingTimeout: SMTP_PROBE_MS,
    socketTimeout: SMTP_PROBE_MS,
  });
  try {
    await transporter.verify();
    return null;
  } catch (error) {
    return error ?? new Error("sin detalle");
  } finally {
    transporter.close();
  }
}

async function outbox(db: Db) {
  const [row] = rowsOf<{ pending: number; failed: number; last_error: string | null }>(
    await db.execute(sql`
      select
        count(*) filter (where status in ('pending', 'sending'))::int as pending,
        count(*) filter (where status = 'failed')::int as failed,
        (select last_error from mail_outbox where last_error is not null
          order by coalesce(sent_at, next_attempt_at) desc limit 1) as last_error
      from mail_outbox`),
  );
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, lastError: row?.last_error };
}

export const mailProbe: DiagnosticProbe = {
  key: "correo",
  title: "Correo",
  // The connection, then the greeting, each with its own limit.
  timeoutMs: 2 * SMTP_PROBE_MS + 2_000,
  async run({ db, config }) {
    const facts: [string, string][] = [];
    const advice: string[] = [];
    let state: DiagnosticState = "bien";
    const transport = config.mail.transport;
    const [queue, smtpError] = await Promise.all([
      outbox(db),
      transport.kind === "smtp" ? verifySmtp(transport.url) : Promise.resolve(null),
    ]);
    if (transport.kind === "smtp") {
      const server = new URL(transport.url);
      const port = server.port || (server.protocol === "smtps:" ? "465" : "587");
      facts.push([
        "Servidor SMTP",
        `${server.protocol}//${server.hostname}:${server.port || "(puerto por defecto)"}`,
      ]);
      if (smtpError) {
        const code = (smtpError as { code?: string }).code;
        facts.push(["Conexión", `falló${code ? ` (${code})` : ""}`]);
        state = "mal";
        advice.push(smtpProblem(smtpError, `${server.hostname}:${port}`));
      } else {
        facts.push([
          "Conexión",
          server.username
            ? "responde y acepta el usuario y la clave"
            : "responde (sin usuario ni clave)",
        ]);
      }
    } else if (transport.kind === "mailbox") {
      facts.push(["Servidor SMTP", "ninguno: buzón de desarrollo (/__dev/correo)"]);
      state = "aviso";
      advice.push(
        "Los correos no salen: quedan en el buzón de desarrollo. Pon SMTP_URL para enviarlos.",
      );
    } else {
      facts.push(["Servidor SMTP", "ninguno"]);
      state = "mal";
      advice.push(
        "Sin SMTP_URL no sale ningún correo (recordatorios, mensajes, enlaces de inicio de sesión). Pon SMTP_URL=smtp://usuario:clave@servidor:587.",
      );
    }
    facts.push(["Remitente", config.mail.from]);
    facts.push(["Correos en cola", String(queue.pending)]);
    facts.push(["Correos que no se pudieron enviar", String(queue.failed)]);
    facts.push(["Último error", queue.lastError ?? "ninguno"]);
    if (queue.pending > 50 && state === "bien") {
      state = "aviso";
      advice.push(
        `Hay ${queue.pending} correos esperando: el servidor SMTP los acepta despacio o los rechaza. Mira el último error y prueba con 'Enviar correo de prueba'.`,
      );
    }
    if (queue.failed > 0 && state === "bien") {
      state = "aviso";
      advice.push(
        `${queue.failed} correos se dieron por perdidos tras varios intentos. El último error dice por qué; suele ser la clave de SMTP o un remitente (MAIL_FROM) que el servidor no acepta.`,
      );
    }
    return { key: "correo", title: "Correo", state, facts, advice };
  },
};
