// How a competitor is named on public pages (decisions 052 and 056): first name and the initial of
// the first surname — the father's, which Bolivians write first of two.
import { expect, test } from "vitest";
import { publicName } from "~/competitions/teams";

test("a name with two surnames shows the first surname's initial, not the second's", () => {
  expect(publicName("Ana Quispe Mamani")).toBe("Ana Q.");
  expect(publicName("Ana María Quispe Mamani")).toBe("Ana Q.");
});

test("a first name and one surname shows that surname's initial", () => {
  expect(publicName("Beto Choque")).toBe("Beto C.");
  expect(publicName("  beto   choque ")).toBe("beto C.");
});

test("one word is the name alone; nothing at all is 'Integrante'", () => {
  expect(publicName("Ana")).toBe("Ana");
  expect(publicName("   ")).toBe("Integrante");
  expect(publicName(null)).toBe("Integrante");
});

test("a surname that starts with an accented letter keeps it whole", () => {
  expect(publicName("Luz Ñuflo Álvarez")).toBe("Luz Ñ.");
});
