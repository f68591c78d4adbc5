// Refusals of the members domain that more than one of its rules (and other domains) throw.
import { Refusal } from "~/kernel/errors";
import { MEMBER_MESSAGES } from "./messages";

/** The rule needs a signed-in member and there is none. */
export class NotSignedInError extends Refusal {
  override name = "NotSignedInError";
  constructor() {
    super("Debes iniciar sesión.", 401);
  }
}

/** The change would leave the site without an admin: what is refused says which change. */
export class LastAdminError extends Refusal {
  override name = "LastAdminError";
  constructor(message: string = MEMBER_MESSAGES.lastAdmin) {
    super(message, 409);
  }
}
