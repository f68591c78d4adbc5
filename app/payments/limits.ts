// The payment method's limits (decision 048), for the form's attributes and its schema.
export const ACCOUNT_HOLDER_MAX = 120;
export const BANK_MAX = 120;
export const INSTRUCTIONS_MAX = 1000;
/** How many days before its expiry the page warns that the bank's QR will stop working. */
export const QR_EXPIRY_WARNING_DAYS = 30;
