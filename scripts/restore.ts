// npm run restore -- [--force] FILE | s3://BUCKET/KEY
// Loads a backup into the database of DATABASE_URL or DATA_DIR (a new data folder is created and
// migrated), and its photos into the site's store (the folder, or the bucket with S3_*), whichever
// kind of store the backup came from. From s3://… the file is fetched whole first. A database that
// holds anything is refused unless --force, which replaces it all.
import { restoreCommand, runCommand } from "../server/backup/commands.server";

runCommand(restoreCommand, process.argv.slice(2), process.env).then((code) => process.exit(code));
