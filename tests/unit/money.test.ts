// Amounts in bolivianos as people type them, and as the site writes them (decision 048).
import { expect, test } from "vitest";
import { formatBs, parseBs, priceFieldValue } from "~/payments/money";
import { priceField } from "~/payments/schemas";
import { qrExpiry } from "~/payments/payment-method.server";

test("amounts typed as people write them become centavos", () => {
  const cases: [string, number][] = [
    ["30", 3000],
    ["30,50", 3050],
    ["30,5", 3050],
    ["30.50", 3050],
    ["0,99", 99],
    ["Bs 30", 3000],
    ["30 Bs.", 3000],
    ["bs. 1.200", 120_000],
    ["1.200,50", 120_050],
    ["1 200", 120_000],
    ["100000", 10_000_000],
  ];
  for (const [typed, cents] of cases) expect(parseBs(typed), typed).toBe(cents);
});

test("what is not an amount is null", () => {
  for (const typed of [
    "",
    "treinta",
    "-30",
    "30,505",
    "1,2,3",
    "1.20.0",
    "1.200 300",
    "3O",
    "1e3",
    "30,",
  ])
    expect(parseBs(typed), typed).toBeNull();
});

test("the price field: blank is free, too much or not an amount is refused", () => {
  expect(priceField.parse("")).toBe(0);
  expect(priceField.parse("  30,50 ")).toBe(3050);
  expect(priceField.safeParse("100000,01").success).toBe(false);
  expect(priceField.safeParse("javascript:alert(1)").success).toBe(false);
  expect(priceField.safeParse(30).success).toBe(false);
});

test("amounts are written as 'Bs 30,50', and read back into the form as they were typed", () => {
  expect(formatBs(3000)).toBe("Bs 30");
  expect(formatBs(3050)).toBe("Bs 30,50");
  expect(formatBs(5)).toBe("Bs 0,05");
  expect(formatBs(120_000)).toBe("Bs 1.200");
  expect(priceFieldValue(0)).toBe("");
  expect(priceFieldValue(3050)).toBe("30,50");
  for (const cents of [1, 99, 3000, 3050, 120_050])
    expect(parseBs(priceFieldValue(cents))).toBe(cents);
});

test("the bank's QR: expired from its date, 'soon' within 30 days, nothing otherwise", () => {
  expect(qrExpiry(null, "2026-11-27")).toBeNull();
  expect(qrExpiry("2026-11-27", "2026-11-27")).toBe("expired");
  expect(qrExpiry("2026-11-01", "2026-11-27")).toBe("expired");
  expect(qrExpiry("2026-12-27", "2026-11-27")).toBe("soon");
  expect(qrExpiry("2026-12-28", "2026-11-27")).toBeNull();
});
