// `./ayllu admin-link EMAIL`, `npm run admin-link -- EMAIL` and `node cli.js admin-link EMAIL`:
// prints a one-time sign-in link for an admin on the server's console (decision 074). It reads
// the configuration only (the site's secret and PUBLIC_URL), never the database, so it works
// beside a running site, even a small one whose embedded database only that site may open.
import { ConfigError, loadConfig } from "~/kernel/config.server";
import { CONSOLE_LINK_TTL_MS, issueConsoleLink } from "~/members/console-link.server";

export const ADMIN_LINK_USAGE = "Uso: npm run admin-link -- CORREO   (./ayllu admin-link CORREO)";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** 0 when the link was printed, 1 for a bad configuration, 2 for a wrong command line. */
export function adminLinkCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output = { out: console.log, err: console.error },
  now: Date = new Date(),
): number {
  const [email, ...rest] = argv;
  if (!email || rest.length > 0 || email.startsWith("-")) {
    output.err(ADMIN_LINK_USAGE);
    return 2;
  }
  if (!EMAIL.test(email.trim())) {
    output.err(`${email} no es un correo. ${ADMIN_LINK_USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.err(`Error: ${error.message}`);
    return 1;
  }
  if (!config.production && !env.SESSION_SECRET) {
    output.err(
      "Fuera de producción el servidor se inventa una clave nueva cada vez que arranca, así que un enlace hecho aquí no le serviría. Pon la misma SESSION_SECRET al servidor y a este comando, o entra con el proveedor de desarrollo de /login.",
    );
    return 1;
  }
  const link = issueConsoleLink(config.sessionSecret, email, now);
  const minutes = CONSOLE_LINK_TTL_MS / 60_000;
  const url = new URL(link.path, config.publicUrl).href;
  output.out(
    [
      `Enlace para entrar como administrador (${link.email}); sirve una vez, durante ${minutes} minutos:`,
      "",
      `  ${url}`,
      "",
      `Si el sitio no responde en ${config.publicUrl.origin} (PUBLIC_URL equivocada), abre la misma ruta en la dirección por la que sí llegas, por ejemplo http://IP-DEL-SERVIDOR${link.path}`,
      "Te lleva a Diagnóstico. Queda escrito en el registro de actividad. No lo compartas: quien lo abra primero entra como tú.",
    ].join("\n"),
  );
  return 0;
}
