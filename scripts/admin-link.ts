// npm run admin-link -- EMAIL   prints a one-time sign-in link for the admin with that e-mail
// (docs/decisions/074-console-sign-in-link.md). Uses the server's configuration (the same .env or
// environment); it works while the server runs.
import { adminLinkCommand } from "../server/admin/admin-link.server";

process.exit(adminLinkCommand(process.argv.slice(2), process.env));
