// Who published a note, resource or project. Who may publish: kernel/permissions.ts.
import type { User } from "~/db/schema.server";

/** §3 publisherName: the display name, or 'Admin'. */
export function publisherNameOf(actor: Pick<User, "displayName">): string {
  return actor.displayName?.trim() || "Admin";
}
