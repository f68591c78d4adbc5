import { expect, test } from "vitest";
import { z } from "zod";
import { parseForm, UNKNOWN_FIELDS_MESSAGE } from "~/kernel/forms";
import { EventSchema } from "~/events/schemas";
import { isRealDate, safeRedirectPath } from "~/kernel/checks";
import { ProfileSchema } from "~/members/schemas";
import { formatCalendarDate, formatDateTime, zonedToInstant } from "~/kernel/time";

const profile = {
  nombreCompleto: "Ana Quispe Mamani",
  fechaNacimiento: "1990-05-17",
  pais: "Bolivia",
  ciudad: "La Paz",
  genero: "Femenino",
  habilidades: "Arduino",
};

function form(entries: [string, string | Blob][]): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

/** The first message ProfileSchema gives for `field`, or null when the input is accepted. */
function profileError(input: Record<string, unknown>, field: string): string | null {
  const result = ProfileSchema.safeParse(input);
  if (result.success) return null;
  return result.error.issues.find((i) => i.path[0] === field)?.message ?? null;
}

// ProfileSchema

test("ProfileSchema accepts a complete profile and trims every text", () => {
  const parsed = ProfileSchema.parse({
    ...profile,
    nombreCompleto: "  Ana Quispe Mamani ",
    ciudad: "\tLa Paz\n",
    habilidades: "  Arduino  ",
  });
  expect(parsed).toEqual(profile);
});

test("ProfileSchema makes habilidades an empty text when it is missing", () => {
  const { habilidades: _, ...withoutSkills } = profile;
  expect(ProfileSchema.parse(withoutSkills).habilidades).toBe("");
});

test.each([
  ["nombreCompleto", "Escribe tu nombre completo."],
  ["fechaNacimiento", "Escribe tu fecha de nacimiento."],
  ["pais", "Escribe tu país."],
  ["ciudad", "Escribe tu ciudad."],
  ["genero", "Selecciona un género de la lista."],
])("ProfileSchema requires %s, missing or blank", (field, message) => {
  const { [field as keyof typeof profile]: _, ...without } = profile;
  expect(profileError(without, field)).toBe(message);
  expect(profileError({ ...profile, [field]: "" }, field)).toBe(message);
  expect(profileError({ ...profile, [field]: "  \t\n " }, field)).toBe(message);
});

test("ProfileSchema accepts habilidades of 30 characters and refuses 31", () => {
  expect(profileError({ ...profile, habilidades: "x".repeat(30) }, "habilidades")).toBeNull();
  expect(profileError({ ...profile, habilidades: "x".repeat(31) }, "habilidades")).toBe(
    "Las habilidades pueden tener como máximo 30 caracteres.",
  );
  // Counted after trimming, as it is stored.
  expect(
    profileError({ ...profile, habilidades: ` ${"x".repeat(30)} ` }, "habilidades"),
  ).toBeNull();
});

test("ProfileSchema accepts texts of 100 characters and refuses 101", () => {
  for (const field of ["nombreCompleto", "pais", "ciudad"]) {
    expect(profileError({ ...profile, [field]: "a".repeat(100) }, field)).toBeNull();
    expect(profileError({ ...profile, [field]: "a".repeat(101) }, field)).toBe(
      "Máximo 100 caracteres.",
    );
  }
});

test.each(["Masculino", "Femenino", "Otro"])("ProfileSchema accepts the genero %s", (genero) => {
  expect(profileError({ ...profile, genero }, "genero")).toBeNull();
});

test.each(["Robot", "masculino", "Otro ", "Hombre"])(
  "ProfileSchema refuses the genero %j",
  (genero) => {
    expect(profileError({ ...profile, genero }, "genero")).toBe(
      "Selecciona un género de la lista.",
    );
  },
);

test.each([
  "hola",
  "2025-02-30",
  "1990/05/17",
  "17-05-1990",
  "1990-5-17",
  "1899-12-31",
  "2023-02-29",
])("ProfileSchema refuses the birth date %j as not a date", (fechaNacimiento) => {
  expect(profileError({ ...profile, fechaNacimiento }, "fechaNacimiento")).toBe(
    "La fecha de nacimiento no es una fecha válida.",
  );
});

test("ProfileSchema refuses a birth date in the future and accepts 1900-01-01 and 29 February of a leap year", () => {
  const nextYear = `${new Date().getUTCFullYear() + 1}-06-01`;
  expect(profileError({ ...profile, fechaNacimiento: nextYear }, "fechaNacimiento")).toBe(
    "La fecha de nacimiento no puede estar en el futuro.",
  );
  expect(profileError({ ...profile, fechaNacimiento: "1900-01-01" }, "fechaNacimiento")).toBeNull();
  expect(profileError({ ...profile, fechaNacimiento: "2000-02-29" }, "fechaNacimiento")).toBeNull();
});

test("ProfileSchema refuses fields it does not have, such as isAdmin", () => {
  const result = ProfileSchema.safeParse({ ...profile, isAdmin: true, uid: "x" });
  expect(result.success).toBe(false);
  expect(result.error?.issues).toEqual([
    expect.objectContaining({ code: "unrecognized_keys", keys: ["isAdmin", "uid"] }),
  ]);
});

test("ProfileSchema refuses values that are not text", () => {
  expect(profileError({ ...profile, nombreCompleto: 42 }, "nombreCompleto")).toBe(
    "Escribe tu nombre completo.",
  );
  expect(profileError({ ...profile, habilidades: ["a"] }, "habilidades")).toBe(
    "Las habilidades deben ser texto.",
  );
});

// isRealDate

test.each(["2025-12-06", "2024-02-29", "2000-02-29", "1900-01-01", "2025-01-31"])(
  "isRealDate accepts %s",
  (value) => {
    expect(isRealDate(value)).toBe(true);
  },
);

test.each([
  "2025-02-29",
  "1900-02-29",
  "2025-02-30",
  "2025-04-31",
  "2025-13-01",
  "2025-00-10",
  "2025-01-00",
  "2025-1-01",
  "1990/05/17",
  " 2025-01-01",
  "2025-01-01T00:00",
  "hola",
  "",
])("isRealDate refuses %j", (value) => {
  expect(isRealDate(value)).toBe(false);
});

// safeRedirectPath

test("safeRedirectPath keeps a path on this site with its query and hash", () => {
  expect(safeRedirectPath("/profile?editar=1#eventos")).toBe("/profile?editar=1#eventos");
  expect(safeRedirectPath("/detalles/123")).toBe("/detalles/123");
  expect(safeRedirectPath("/")).toBe("/");
});

test.each([
  "//evil.example",
  "//evil.example/path",
  "/\\evil.example",
  "\\\\evil.example",
  "https://x",
  "http://evil.example/profile",
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "profile",
  "/..//evil.example",
  "/./\u002f/evil.example",
  "/a/../..//evil.example",
  "/%2e%2e//evil.example",
  "/profile\nLocation: https://evil.example",
  "/pro\u0000file",
  "/\tevil",
  "/\r\n//evil.example",
  "",
])("safeRedirectPath refuses %j and gives the fallback", (value) => {
  expect(safeRedirectPath(value)).toBe("/");
  expect(safeRedirectPath(value, "/inicio")).toBe("/inicio");
});

test("safeRedirectPath refuses what is not text, and paths too long to be real", () => {
  expect(safeRedirectPath(null)).toBe("/");
  expect(safeRedirectPath(undefined)).toBe("/");
  expect(safeRedirectPath(["/profile"])).toBe("/");
  expect(safeRedirectPath(`/${"a".repeat(2000)}`)).toBe("/");
});

test("safeRedirectPath never returns something a browser would read as another site", () => {
  const tricky = ["/.//x", "/..//x", "/a/b/../../..//x", "/%2e//x", "/%2E%2E//x", "/./../.././/x"];
  for (const value of tricky) {
    const result = safeRedirectPath(value, "/");
    expect(new URL(result, "https://ayllu.example").origin).toBe("https://ayllu.example");
  }
});

// parseForm

const Pair = z.strictObject({
  titulo: z.string().trim().min(1, "Escribe un título."),
  texto: z.string().default(""),
});

test("parseForm reads text fields into the schema's value", () => {
  const result = parseForm(
    Pair,
    form([
      ["titulo", " Hola "],
      ["texto", "Mundo"],
    ]),
  );
  expect(result).toEqual({ ok: true, data: { titulo: "Hola", texto: "Mundo" } });
});

test("parseForm gives the schema's message for the field that is wrong, and the values sent", () => {
  const result = parseForm(
    Pair,
    form([
      ["titulo", "  "],
      ["texto", "x"],
    ]),
  );
  expect(result).toEqual({
    ok: false,
    fieldErrors: { titulo: "Escribe un título." },
    formError: null,
    values: { titulo: "  ", texto: "x" },
  });
});

test("parseForm refuses unknown fields with a form message naming them", () => {
  const result = parseForm(
    Pair,
    form([
      ["titulo", "Hola"],
      ["isAdmin", "true"],
      ["publisher", "x"],
    ]),
  );
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.formError).toBe(`${UNKNOWN_FIELDS_MESSAGE}: isAdmin, publisher.`);
  expect(result.fieldErrors).toEqual({});
});

test("parseForm ignores intent and the fields it is told to ignore", () => {
  const result = parseForm(
    Pair,
    form([
      ["intent", "guardar"],
      ["titulo", "Hola"],
      ["redirectTo", "/x"],
    ]),
    { ignore: ["redirectTo"] },
  );
  expect(result).toEqual({ ok: true, data: { titulo: "Hola", texto: "" } });
});

test("parseForm refuses a field sent twice, even with the same value", () => {
  const result = parseForm(
    Pair,
    form([
      ["titulo", "Hola"],
      ["titulo", "Hola"],
    ]),
  );
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.fieldErrors).toEqual({ titulo: "Este campo tiene un valor no válido." });
});

test("parseForm refuses a file where text is expected", () => {
  const result = parseForm(
    Pair,
    form([
      ["titulo", new File(["Hola"], "titulo.txt", { type: "text/plain" })],
      ["texto", "x"],
    ]),
  );
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.fieldErrors).toEqual({ titulo: "Este campo tiene un valor no válido." });
  expect(result.values).toEqual({ texto: "x" });
});

test("parseForm refuses a file even in a list field or an unknown field", () => {
  const Links = z.strictObject({ enlaces: z.array(z.string()) });
  const inList = parseForm(
    Links,
    form([
      ["enlaces", "https://a.example"],
      ["enlaces", new Blob(["x"])],
    ]),
    { listFields: ["enlaces"] },
  );
  expect(inList.ok).toBe(false);
  const unknown = parseForm(Links, form([["adjunto", new File(["x"], "x.bin")]]), {
    listFields: ["enlaces"],
  });
  expect(unknown.ok).toBe(false);
});

test("parseForm collects list fields in order, and gives an empty list when none was sent", () => {
  const Links = z.strictObject({
    titulo: z.string(),
    enlaces: z.array(z.url({ protocol: /^https?$/, error: "Escribe una URL http(s)." })),
    otros: z.array(z.string()),
  });
  const result = parseForm(
    Links,
    form([
      ["enlaces", "https://b.example"],
      ["titulo", "T"],
      ["enlaces", "https://a.example"],
    ]),
    { listFields: ["enlaces", "otros"] },
  );
  expect(result).toEqual({
    ok: true,
    data: { titulo: "T", enlaces: ["https://b.example", "https://a.example"], otros: [] },
  });
});

test("parseForm names the entry of a list field that is wrong, and the list itself", () => {
  const Links = z.strictObject({
    enlaces: z.array(z.url({ protocol: /^https?$/, error: "Escribe una URL http(s)." })),
  });
  const result = parseForm(
    Links,
    form([
      ["enlaces", "https://a.example"],
      ["enlaces", "javascript:alert(1)"],
    ]),
    { listFields: ["enlaces"] },
  );
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.fieldErrors).toEqual({
    enlaces: "Escribe una URL http(s).",
    "enlaces.1": "Escribe una URL http(s).",
  });
});

// zonedToInstant and the formatting of dates

test("zonedToInstant: 2025-12-06 19:00 in America/La_Paz is 2025-12-06T23:00:00Z", () => {
  expect(zonedToInstant("2025-12-06", "19:00", "America/La_Paz").toISOString()).toBe(
    "2025-12-06T23:00:00.000Z",
  );
  expect(zonedToInstant("2025-12-06", "19:00:00", "America/La_Paz").toISOString()).toBe(
    "2025-12-06T23:00:00.000Z",
  );
});

test("zonedToInstant crosses midnight into the next UTC day", () => {
  expect(zonedToInstant("2025-12-31", "22:30", "America/La_Paz").toISOString()).toBe(
    "2026-01-01T02:30:00.000Z",
  );
  expect(zonedToInstant("2025-01-01", "08:00", "Asia/Tokyo").toISOString()).toBe(
    "2024-12-31T23:00:00.000Z",
  );
  expect(zonedToInstant("2025-06-01", "12:00", "UTC").toISOString()).toBe(
    "2025-06-01T12:00:00.000Z",
  );
});

test("zonedToInstant follows America/New_York on both sides of the March change to daylight time", () => {
  // 2025-03-09 02:00 EST became 03:00 EDT (07:00Z).
  expect(zonedToInstant("2025-03-08", "12:00", "America/New_York").toISOString()).toBe(
    "2025-03-08T17:00:00.000Z",
  );
  expect(zonedToInstant("2025-03-09", "01:30", "America/New_York").toISOString()).toBe(
    "2025-03-09T06:30:00.000Z",
  );
  expect(zonedToInstant("2025-03-09", "03:30", "America/New_York").toISOString()).toBe(
    "2025-03-09T07:30:00.000Z",
  );
  expect(zonedToInstant("2025-03-09", "12:00", "America/New_York").toISOString()).toBe(
    "2025-03-09T16:00:00.000Z",
  );
});

test("zonedToInstant follows America/New_York on both sides of the November change back to standard time", () => {
  // 2025-11-02 02:00 EDT became 01:00 EST (06:00Z).
  expect(zonedToInstant("2025-11-01", "12:00", "America/New_York").toISOString()).toBe(
    "2025-11-01T16:00:00.000Z",
  );
  expect(zonedToInstant("2025-11-02", "00:30", "America/New_York").toISOString()).toBe(
    "2025-11-02T04:30:00.000Z",
  );
  expect(zonedToInstant("2025-11-02", "03:00", "America/New_York").toISOString()).toBe(
    "2025-11-02T08:00:00.000Z",
  );
  expect(zonedToInstant("2025-11-02", "12:00", "America/New_York").toISOString()).toBe(
    "2025-11-02T17:00:00.000Z",
  );
});

test("formatDateTime shows an instant in the site's zone, in Spanish", () => {
  const text = formatDateTime("2025-12-06T23:00:00Z", "America/La_Paz");
  expect(text).toContain("6 de diciembre de 2025");
  expect(text).toMatch(/7:00[\s\u00a0\u202f]p\.[\s\u00a0\u202f]m\./);
});

test("formatDateTime gives the same instant in another zone its own time, however often it is asked", () => {
  for (let round = 0; round < 2; round++) {
    expect(formatDateTime("2025-12-06T23:00:00Z", "America/La_Paz")).toMatch(
      /^sábado, 6 de diciembre.*7:00/,
    );
    expect(formatDateTime("2025-12-06T23:00:00Z", "Europe/Madrid")).toMatch(
      /^domingo, 7 de diciembre.*12:00/,
    );
    expect(formatDateTime(new Date("2025-12-06T23:00:00Z"), "America/La_Paz")).toMatch(/7:00/);
  }
});

test("formatCalendarDate shows a birth date on its own day, in Spanish", () => {
  expect(formatCalendarDate("1990-05-17")).toBe("17 de mayo de 1990");
  expect(formatCalendarDate("2000-01-01")).toBe("1 de enero de 2000");
  expect(formatCalendarDate("1999-12-31")).toBe("31 de diciembre de 1999");
});

test("an event's capacity is blank (no limit) or a whole number of seats from 1 to 100.000; anything else is a Spanish field error", () => {
  const base = {
    nombreEvento: "Curso",
    ubicacionEvento: "Bolivia, La Paz",
    tipoEvento: "Presencial",
    fechaEvento: "2031-01-01",
    horaEvento: "10:00",
    imagenEnlace: "https://example.com/a.png",
    descripcion: "Texto",
  };
  const capacityOf = (capacity?: string) => {
    const entries = Object.entries(base) as [string, string][];
    if (capacity !== undefined) entries.push(["capacity", capacity]);
    const result = parseForm(EventSchema, form(entries), { listFields: ["enlacesVirtuales"] });
    return result.ok ? result.data.capacity : result.fieldErrors.capacity;
  };
  expect(capacityOf(undefined)).toBeNull();
  expect(capacityOf("")).toBeNull();
  expect(capacityOf("  ")).toBeNull();
  expect(capacityOf(" 25 ")).toBe(25);
  expect(capacityOf("1")).toBe(1);
  expect(capacityOf("100000")).toBe(100000);
  const invalid = "El cupo debe ser un número entero de plazas (1 o más), o quedar vacío.";
  for (const bad of [
    "0",
    "-3",
    "2.5",
    "1e3",
    "diez",
    "0x10",
    "9999999999",
    "javascript:alert(1)",
  ]) {
    expect(capacityOf(bad), bad).toBe(invalid);
  }
  expect(capacityOf("100001")).toBe("El cupo puede ser como máximo 100.000 plazas.");
  const twice = parseForm(
    EventSchema,
    form([...(Object.entries(base) as [string, string][]), ["capacity", "3"], ["capacity", "4"]]),
  );
  expect(twice.ok).toBe(false);
});
