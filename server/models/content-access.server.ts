// Who may change notes, resources and projects (§6): admins only, checked on every call.
import type { User } from "../db/schema.server";

export class NotAllowedError extends Error {
  override name = "NotAllowedError";
  constructor() {
    super("Acceso denegado. No eres un administrador.");
  }
}

/** The acting person must be a signed-in admin; anyone else (or nobody) is refused. */
export function assertAdmin(
  actor: Pick<User, "isAdmin"> | null | undefined,
): asserts actor is Pick<User, "isAdmin"> {
  if (!actor?.isAdmin) throw new NotAllowedError();
}

/** §3 publisherName: the display name, or 'Admin'. */
export function publisherNameOf(actor: Pick<User, "displayName">): string {
  return actor.displayName?.trim() || "Admin";
}
