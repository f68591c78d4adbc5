// Who published a note, resource or project. Who may publish: kernel/permissions.ts.
import type { User } from "~/db/schema.server";

/**
 * §3 publisherName: the name the publisher gave on their profile, else their display name, else
 * 'Admin' — every name the site shows is the profile's first.
 */
export function publisherNameOf(actor: Pick<User, "displayName" | "nombreCompleto">): string {
  return actor.nombreCompleto?.trim() || actor.displayName?.trim() || "Admin";
}
