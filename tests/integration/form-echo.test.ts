// A refused form shows what was typed again, but never more of a value than its field takes; a
// value longer than any field could take (a megabyte) is refused where every form is read, with
// nothing of it echoed and nothing changed.
import { afterAll, beforeAll, expect, test } from "vitest";
import { notes, schools } from "~/db/schema.server";
import { BODY_MAX, EVENT_DESCRIPTION_MAX, HABILIDADES_MAX } from "~/kernel/limits";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { FORM_VALUE_MAX } from "~/kernel/read-form.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { ADMIN_EMAIL, createMember, eventForm, eventFieldError } from "../helpers/events";
import { fieldErrorOf, VALID_PROFILE } from "../helpers/profile-form";
import { startTestServer, type TestServer } from "../helpers/server";

failOnConsoleError();

let server: TestServer;
let admin: BrowserClient;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL });
  admin = (await createMember(server, ADMIN_EMAIL, "Jefa Admin")).client;
});
afterAll(() => server?.close());

/** A megabyte of one letter: under the body limit, far over any field's. */
const MEGABYTE = "x".repeat(1_000_000);
/** The longest value a form may carry at all: over every field's own limit. */
const HUGE = "x".repeat(FORM_VALUE_MAX);

/** The longest run of the letter x in `html`. */
function longestRun(html: string): number {
  return Math.max(0, ...[...html.matchAll(/x+/g)].map((m) => m[0].length));
}

/** How big a refused page may be: the page itself, and each echoed value at most three times. */
const PAGE_ALLOWANCE = 150_000;

test("the publications admin echoes an over-long texto cut to its limit, with the field's error", async () => {
  const reply = await admin.post("/projectsandnotes", {
    intent: "createNote",
    titulo: "Una nota",
    texto: HUGE,
    enlaceImagen: "",
    enlacesAdicionales: [""],
  });
  expect(reply.status).toBe(400);
  expect(reply.text.length).toBeLessThan(PAGE_ALLOWANCE + 3 * BODY_MAX);
  expect(longestRun(reply.text)).toBe(BODY_MAX);
  expect(reply.text).toContain(
    `<p class="field-error" id="nota-texto-error">Máximo ${BODY_MAX} caracteres.</p>`,
  );
});

test("the profile form echoes over-long values cut to their limits, a choice field's too", async () => {
  const { client } = await createMember(server);
  const reply = await client.post("/profile", {
    ...VALID_PROFILE,
    habilidades: HUGE,
    genero: HUGE,
    fechaNacimiento: HUGE,
  });
  expect(reply.status).toBe(400);
  expect(reply.text.length).toBeLessThan(PAGE_ALLOWANCE + 3 * BODY_MAX);
  expect(reply.text).toContain(`value="${"x".repeat(HABILIDADES_MAX)}"`);
  expect(fieldErrorOf(reply.text, "habilidades")).toBe(
    `Las habilidades pueden tener como máximo ${HABILIDADES_MAX} caracteres.`,
  );
  expect(fieldErrorOf(reply.text, "genero")).toBe("Selecciona un género de la lista.");
});

test("the event form echoes an over-long description cut to its limit, with the field's error", async () => {
  const reply = await admin.post("/admin", eventForm("publish", { descripcion: HUGE }));
  expect(reply.status).toBe(400);
  expect(reply.text.length).toBeLessThan(PAGE_ALLOWANCE + 3 * EVENT_DESCRIPTION_MAX);
  expect(longestRun(reply.text)).toBe(EVENT_DESCRIPTION_MAX);
  expect(eventFieldError(reply.text, "descripcion")).toBe(
    `Máximo ${EVENT_DESCRIPTION_MAX} caracteres.`,
  );
});

/** The answer to a form with a megabyte in one field: a short refusal, nothing of the value. */
function expectRefused(reply: { status: number; text: string }) {
  expect(reply.status).toBe(413);
  expect(reply.text.length).toBeLessThan(PAGE_ALLOWANCE);
  expect(longestRun(reply.text)).toBeLessThan(100);
  expect(reply.text).toContain(KERNEL_MESSAGES.valueTooLong);
}

test("a megabyte in one field of any form is refused whole, short and in Spanish, and nothing is saved", async () => {
  const notesBefore = (await server.db.select().from(notes)).length;
  expectRefused(
    await admin.post("/projectsandnotes", {
      intent: "createNote",
      titulo: "Una nota",
      texto: MEGABYTE,
      enlaceImagen: "",
      enlacesAdicionales: [""],
    }),
  );
  expect(await server.db.select().from(notes)).toHaveLength(notesBefore);

  const { client } = await createMember(server);
  expectRefused(await client.post("/profile", { ...VALID_PROFILE, habilidades: MEGABYTE }));
  expectRefused(await admin.post("/admin", eventForm("publish", { descripcion: MEGABYTE })));
  expectRefused(
    await admin.post("/admin/escuelas", { intent: "merge", from: MEGABYTE, into: "x" }),
  );
  expect(await server.db.select().from(schools)).toEqual([]);
  // Even a value in a field the form does not know, and on a form anyone may post.
  expectRefused(await client.post("/profile", { ...VALID_PROFILE, otro: MEGABYTE }));
  expectRefused(await new BrowserClient(server.url).post("/login/correo", { email: MEGABYTE }));
});

test("one character over the longest a form may carry is refused where a value at the limit gets its field's error", async () => {
  const reply = await admin.post("/projectsandnotes", {
    intent: "createNote",
    titulo: "Una nota",
    texto: `${HUGE}x`,
    enlaceImagen: "",
    enlacesAdicionales: [""],
  });
  expectRefused(reply);
});
