// Whether a registration's place lets its holder through the door yet (decision 048): a place
// held for a payment that treasury has not confirmed is no pass. Shared by the member's pages (a
// greyed pass without its code) and the door (a refusal with the same reason).

/** Why a pass is not valid yet, by the state of its registration's payment. */
export const PASS_NOT_VALID = {
  pending: "Aún no válida: pago pendiente",
  submitted: "Aún no válida: pago por revisar",
  refused: "Aún no válida: pago rechazado",
} as const;

/** The reason a place with a payment in `status` is not a pass yet, or null when it is one. */
export function passNotValid(status: string | null | undefined): string | null {
  return status && Object.hasOwn(PASS_NOT_VALID, status)
    ? PASS_NOT_VALID[status as keyof typeof PASS_NOT_VALID]
    : null;
}
