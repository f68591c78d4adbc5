// The payments' forms (decision 048): an event's price, and the payment method at /tesoreria —
// who receives the transfers, at which bank, what the payer must do, and when the QR stops working.
import { z } from "zod";
import { isRealDate } from "~/kernel/checks";
import { optionalText } from "~/kernel/fields";

import { ACCOUNT_HOLDER_MAX, BANK_MAX, INSTRUCTIONS_MAX } from "./limits";
import { parseBs, PRICE_INVALID, PRICE_MAX_CENTS, PRICE_TOO_HIGH } from "./money";

const EXPIRY_INVALID = "La fecha de vencimiento del QR no es una fecha válida.";

export const PaymentMethodSchema = z.strictObject({
  accountHolder: optionalText(ACCOUNT_HOLDER_MAX),
  bank: optionalText(BANK_MAX),
  instructions: optionalText(INSTRUCTIONS_MAX),
  /** 'Vence el' of the bank's QR: blank when it does not expire. */
  qrExpiresOn: z
    .string({ error: EXPIRY_INVALID })
    .trim()
    .default("")
    .refine((v) => v === "" || isRealDate(v), EXPIRY_INVALID)
    .transform((v) => (v === "" ? null : v)),
});
export type PaymentMethodInput = z.output<typeof PaymentMethodSchema>;

/** 'Precio (Bs, opcional)': blank or 0 is free (0 centavos). */
export const priceField = z
  .string({ error: PRICE_INVALID })
  .trim()
  .max(20, PRICE_INVALID)
  .default("")
  .transform((value, ctx) => {
    if (value === "") return 0;
    const cents = parseBs(value);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: PRICE_INVALID });
      return z.NEVER;
    }
    if (cents > PRICE_MAX_CENTS) {
      ctx.addIssue({ code: "custom", message: PRICE_TOO_HIGH });
      return z.NEVER;
    }
    return cents;
  });

const TRANSACTION_INVALID =
  "Escribe el número de transacción como lo muestra tu banco: letras, cifras y guiones, de 4 a 40.";

/**
 * What is wrong with a 'Número de transacción' (what the bank's app shows for the transfer), or
 * null when it reads as one. Blank is not this rule's business: the payment form takes a receipt
 * or the number.
 */
export function transactionNumberProblem(value: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9 ./-]{3,39}$/.test(value) ? null : TRANSACTION_INVALID;
}

const HOLD_INVALID =
  "Las horas de reserva deben ser un número entero de 1 a 720 (30 días), o quedar vacías (48).";

/** 'Reserva para pagar (horas)': how long a place is held for its payment; blank is 48. */
export const holdHoursField = z
  .string({ error: HOLD_INVALID })
  .trim()
  .default("")
  .refine(
    (v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 720),
    HOLD_INVALID,
  )
  .transform((v) => (v === "" ? 48 : Number(v)));
