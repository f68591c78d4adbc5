// The server bundle's entry (build/server/index.js): what server.js needs to start the site.
export { ConfigError, loadConfig } from "~/kernel/config.server";
export { DataDirInUseError } from "~/db/client.server";
export { startServer } from "./app.server";
export { serveDevProviderToWorkers } from "~/members/dev-provider.server";
export { backupCommand, restoreCommand, runCommand } from "../backup/commands.server";
export { adminLinkCommand } from "../admin/admin-link.server";
