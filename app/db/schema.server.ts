// Every entity of the specification (§3). Property names are the specification's own words;
// columns are their snake_case forms (docs/decisions/002-naming.md). The tables are kept by domain
// in app/db/schema/; this module is the one Drizzle, drizzle-kit (drizzle.config.ts) and the
// domains import.
export * from "./schema/members.server";
export * from "./schema/uploads.server";
export * from "./schema/operations.server";
export * from "./schema/events.server";
export * from "./schema/payments.server";
export * from "./schema/competitions.server";
export * from "./schema/judging.server";
export * from "./schema/roles.server";
export * from "./schema/attendance.server";
export * from "./schema/publications.server";
export * from "./schema/mail.server";
export * from "./schema/site.server";
export * from "./schema/audit.server";
