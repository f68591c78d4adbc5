// Amounts in bolivianos (decision 048): typed as people write them ('30', '30,50', '30.5',
// 'Bs 1.200'), stored as whole centavos, shown as 'Bs 30,50'. Imported by pages (no zod here: the
// form's field is in ./schemas.ts) and by the server.

/** The most an event may cost: Bs 100.000. */
export const PRICE_MAX_CENTS = 10_000_000;

export const PRICE_INVALID =
  "Escribe el precio en bolivianos, como 30 o 30,50 (con dos decimales como mucho), o déjalo vacío si es gratis.";
export const PRICE_TOO_HIGH = `El precio puede ser como máximo ${formatBs(PRICE_MAX_CENTS)}.`;

/**
 * Centavos from what a person typed, or null when it is not an amount. A comma or a point before
 * one or two final digits is the decimal mark; a point or a space between groups of three is a
 * thousands separator ('1.200' is mil doscientos, '1.200,50' too). 'Bs' and 'Bs.' are allowed.
 */
export function parseBs(typed: string): number | null {
  let text = typed
    .trim()
    .replace(/^bs\.?\s*/i, "")
    .replace(/\s*bs\.?$/i, "");
  if (text === "") return null;
  let decimals = "";
  const decimal = /^(.*?)[.,](\d{1,2})$/.exec(text);
  if (decimal) {
    text = decimal[1]!;
    decimals = decimal[2]!;
  }
  // The whole part: plain digits, or groups of three after the first separated alike.
  if (!/^\d{1,7}$/.test(text) && !/^\d{1,3}([. ]\d{3}){1,2}$/.test(text)) return null;
  if (/[. ]/.test(text) && new Set(text.match(/[. ]/g)).size > 1) return null;
  const whole = Number(text.replace(/[. ]/g, ""));
  const cents = Number(decimals.padEnd(2, "0") || "0");
  return whole * 100 + cents;
}

/** 'Bs 30', 'Bs 30,50', 'Bs 1.200': how the site writes an amount. */
export function formatBs(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `Bs ${grouped}${rest === 0 ? "" : `,${String(rest).padStart(2, "0")}`}`;
}

/** What the price field holds for an amount: '30', '30,50', '' for free. */
export function priceFieldValue(cents: number): string {
  if (cents === 0) return "";
  const rest = cents % 100;
  return `${Math.floor(cents / 100)}${rest === 0 ? "" : `,${String(rest).padStart(2, "0")}`}`;
}
