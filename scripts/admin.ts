// npm run admin -- grant <email>   makes the account with this e-mail an admin
// npm run admin -- revoke <email>  takes admin rights away
// Uses the same configuration as the server (DATABASE_URL or DATA_DIR).
import { ConfigError, loadConfig } from "../server/config.server";
import { DataDirInUseError, openDatabase } from "../server/db/client.server";
import { setAdminByEmail, UnknownEmailError } from "../server/models/user.server";

const USAGE = "Uso: npm run admin -- grant <correo>   |   npm run admin -- revoke <correo>";

async function main(argv: string[]): Promise<number> {
  const [command, email, ...rest] = argv;
  if ((command !== "grant" && command !== "revoke") || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    const updated = await setAdminByEmail(database.db, email, command === "grant");
    for (const user of updated) {
      console.log(
        `${user.email}: ${user.isAdmin ? "ahora es administrador" : "ya no es administrador"}`,
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof UnknownEmailError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError
    ) {
      console.error(error.message);
      if (error instanceof DataDirInUseError)
        console.error("Detén el servidor (npm start) y vuelve a intentarlo.");
      return process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
