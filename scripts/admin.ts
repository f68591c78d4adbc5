// npm run admin -- grant <email>   makes the account with this e-mail an admin
// npm run admin -- revoke <email>  takes admin rights away
// Uses the same configuration as the server (DATABASE_URL or DATA_DIR).
import { runAdminCommand } from "./admin-command";

runAdminCommand(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
