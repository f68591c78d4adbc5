// Which integration files run on which database (vitest.config.ts).

/**
 * Integration files that never open the database under test (they read the build or the
 * configuration, or start the command line on an embedded data folder of their own): they run
 * once, in the "embedded" project, not again on PostgreSQL. tests/unit/test-projects.test.ts
 * checks that none of them opens the database under test.
 */
export const WITHOUT_DATABASE_UNDER_TEST = [
  "tests/integration/client-bundle.test.ts",
  "tests/integration/config.test.ts",
  "tests/integration/data-cli.test.ts",
  "tests/integration/durability.test.ts",
];

/** What a test file calls to open the database under test (tests/helpers/database.ts and users). */
export const OPENS_DATABASE_UNDER_TEST =
  /\b(createTestDatabase|startTestServer|startConfiguredServer|openSharedDatabase|createMigratedPostgresDatabase|usingPostgres|postgresAdminUrl|databaseName|testOnlyOn)\b/;
