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
/** A change of roles over a state other than the one the admin's screen showed (decision 064). */
export class RoleConflictError extends Refusal {
  override name = "RoleConflictError";
  constructor(message: string) {
    super(message, 409);
  }
}

/** 'Hacer administrador' or 'Quitar' over another state than the screen showed, or without one. */
export class AdminSeenError extends Refusal {
  override name = "AdminSeenError";
  constructor(message: string, status: 400 | 409) {
    super(message, status);
  }
}

export class LastAdminError extends Refusal {
  override name = "LastAdminError";
  constructor(message: string = MEMBER_MESSAGES.lastAdmin) {
    super(message, 409);
  }
}
