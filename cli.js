// The site's chores in the production image, where there is no tsx (docs/instalar.md):
//   node cli.js backup [--permitir-faltantes] [--to FILE | --to - | s3://BUCKET/KEY]   (none: into BACKUP_DIR, rotated)
//   node cli.js restore [--force] FILE
//   node cli.js admin-link EMAIL   a one-time sign-in link for an admin (decision 074)
// The same code as `npm run backup`, `npm run restore`, from the build.
const entry = await import("./build/server/index.js");
const [command, ...args] = process.argv.slice(2);
if (command === "admin-link") process.exit(entry.adminLinkCommand(args, process.env));
const commands = {
  backup: entry.backupCommand,
  restore: entry.restoreCommand,
};
if (!Object.hasOwn(commands, command ?? "")) {
  console.error(
    "Uso: node cli.js backup [--permitir-faltantes] [--to ARCHIVO] | restore [--force] ARCHIVO | admin-link CORREO",
  );
  process.exit(2);
}
process.exit(await entry.runCommand(commands[command], args, process.env));
