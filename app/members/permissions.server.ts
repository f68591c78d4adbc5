// Who may do what. Every model function that changes something asks here, on every call; routes
// ask too, through requireAdmin (app/guards.server.ts), to choose a redirect or a 403.
import type { User } from "~/db/schema.server";
import { Refusal } from "~/kernel/errors";
import { MEMBER_MESSAGES } from "./messages";

export class NotAllowedError extends Refusal {
  override name = "NotAllowedError";
  constructor() {
    super(MEMBER_MESSAGES.accessDenied, 403);
  }
}

/**
 * Whether this person may administer the site: publish, edit and delete events, notes, resources
 * and projects, manage galleries, see members' details and grant or revoke admin rights (§6).
 */
export function mayAdminister(actor: Pick<User, "isAdmin"> | null | undefined): boolean {
  return actor?.isAdmin === true;
}

/** The acting person must be a signed-in admin; anyone else (or nobody) is refused. */
export function assertAdmin<T extends Pick<User, "isAdmin">>(
  actor: T | null | undefined,
): asserts actor is T {
  if (!mayAdminister(actor)) throw new NotAllowedError();
}
