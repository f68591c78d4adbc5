// The payment method's form at /tesoreria (decision 046): who receives the transfers, at which
// bank, what the payer must do, and when the bank's QR stops working.
import { z } from "zod";
import { isRealDate } from "~/kernel/checks";
import { optionalText } from "~/kernel/fields";

export const ACCOUNT_HOLDER_MAX = 120;
export const BANK_MAX = 120;
export const INSTRUCTIONS_MAX = 1000;
/** How many days before its expiry the page warns that the bank's QR will stop working. */
export const QR_EXPIRY_WARNING_DAYS = 30;

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
