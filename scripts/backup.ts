// npm run backup -- --to FILE | s3://BUCKET/KEY   (neither: into BACKUP_DIR, rotated, see docs/copias.md)
// FILE must be new (a backup never replaces a file), in a folder that exists. Writes everything
// in the database of DATABASE_URL or DATA_DIR, and every photo wherever it is kept (the folder or
// the bucket), into one file (gzip-compressed); to s3://… it is written to a
// temporary file first and sent to the bucket once whole, with the site's S3_* settings.
// With the embedded database, stop the server first (the data folder is open in one process only).
import { backupCommand, runCommand } from "../server/backup/commands.server";

runCommand(backupCommand, process.argv.slice(2), process.env).then((code) => process.exit(code));
