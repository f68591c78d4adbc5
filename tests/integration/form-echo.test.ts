// A refused form shows what was typed again, but never more of a value than its field takes.
import { afterAll, beforeAll, expect, test } from "vitest";
import { BODY_MAX, EVENT_DESCRIPTION_MAX, HABILIDADES_MAX } from "~/kernel/limits";
import type { BrowserClient } from "../helpers/browser-client";
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
const HUGE = "x".repeat(1_000_000);

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
    // A megabyte in all, under the body limit.
    habilidades: HUGE.slice(0, 600_000),
    genero: HUGE.slice(0, 200_000),
    fechaNacimiento: HUGE.slice(0, 200_000),
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
