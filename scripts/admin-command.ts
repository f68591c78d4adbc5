// The admin command itself, apart from the process it runs in: scripts/admin.ts gives it the
// arguments, the environment and the console, and exits with the code it returns.
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { DataDirInUseError, openDatabase } from "../app/db/client.server";
import { setAdminByEmail, UnknownEmailError } from "../app/members/user.server";

export const USAGE = "Uso: npm run admin -- grant <correo>   |   npm run admin -- revoke <correo>";

interface Output {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `grant <email>` or `revoke <email>`: 0 when done, 1 when it could not be done (an unknown
 * e-mail, a bad configuration, a data folder in use), 2 for a wrong command line. Anything else
 * is a defect and is thrown.
 */
export async function runAdminCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output,
): Promise<number> {
  const [command, email, ...rest] = argv;
  if ((command !== "grant" && command !== "revoke") || !email || rest.length > 0) {
    output.err(USAGE);
    return 2;
  }
  try {
    const database = await openDatabase(loadConfig(env));
    try {
      const updated = await setAdminByEmail(database.db, email, command === "grant");
      for (const user of updated) {
        output.out(
          `${user.email}: ${user.isAdmin ? "ahora es administrador" : "ya no es administrador"}`,
        );
      }
      return 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    if (
      error instanceof UnknownEmailError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError
    ) {
      output.err(error.message);
      if (error instanceof DataDirInUseError)
        output.err("Detén el servidor (npm start) y vuelve a intentarlo.");
      return 1;
    }
    throw error;
  }
}
