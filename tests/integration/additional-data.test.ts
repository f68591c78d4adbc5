import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { UNKNOWN_FIELDS_MESSAGE } from "~/kernel/forms";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import {
  alertsIn,
  BAD_INPUTS,
  controlOf,
  fieldErrorOf,
  fieldErrorsIn,
  userRow,
  userRowByEmail,
  VALID_PROFILE,
} from "../helpers/profile-form";
import { failOnConsoleError } from "../helpers/console";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInMember, signInNewcomer } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

failOnConsoleError();

const SAVED = "Datos adicionales guardados con éxito!";

/** Someone who has just signed in for the first time: a profile without nombreCompleto. */
async function createNewcomer(name = "ana_robotica") {
  const email = `nueva-${randomUUID()}@example.com`;
  const client = await signInNewcomer(server.url, email, name);
  const user = await userRowByEmail(server.db, email);
  return { client, user };
}

test("a visitor who is not signed in is sent to /login and back to the form afterwards", async () => {
  const client = new BrowserClient(server.url);
  const reply = await client.get("/aditionaldata");
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login?redirectTo=%2Faditionaldata");
});

test("a form posted by a visitor who is not signed in is sent to /login", async () => {
  const client = new BrowserClient(server.url);
  const reply = await client.post("/aditionaldata", VALID_PROFILE);
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login?redirectTo=%2Faditionaldata");
});

test("a member whose profile already has nombreCompleto is sent to / by the page and by the form", async () => {
  const email = `completo-${randomUUID()}@example.com`;
  const client = await signInMember(server.url, email, "Ya Registrada");
  const before = await userRowByEmail(server.db, email);

  const page = await client.get("/aditionaldata");
  expect(page.status).toBe(302);
  expect(pathOf(page.location)).toBe("/");

  const post = await client.post("/aditionaldata", {
    ...VALID_PROFILE,
    nombreCompleto: "Otro Nombre",
  });
  expect(post.status).toBe(302);
  expect(pathOf(post.location)).toBe("/");
  expect(await userRow(server.db, before.id)).toEqual(before);
});

test("the page shows every field with its label, and genero offers the blank 'Selecciona...' then the three choices", async () => {
  const { client } = await createNewcomer();
  const page = await client.get("/aditionaldata");
  expect(page.status).toBe(200);
  const labels: Record<string, string> = {
    nombreCompleto: "Nombre completo",
    fechaNacimiento: "Fecha de nacimiento",
    pais: "País",
    ciudad: "Ciudad",
    genero: "Género",
    habilidades: "Habilidades (opcional)",
  };
  for (const [field, label] of Object.entries(labels)) {
    expect(page.text).toContain(`<label for="profile-${field}">${label}`);
    expect(controlOf(page.text, field)).toContain(`id="profile-${field}"`);
  }
  expect(controlOf(page.text, "fechaNacimiento")).toContain('type="date"');
  expect(controlOf(page.text, "habilidades")).toContain('maxLength="30"');
  const select = /<select[^>]*name="genero"[^>]*>(.*?)<\/select>/s.exec(page.text)?.[1] ?? "";
  const options = [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map(
    (m) => [m[1], m[2]],
  );
  expect(options).toEqual([
    ["", "Selecciona..."],
    ["Masculino", "Masculino"],
    ["Femenino", "Femenino"],
    ["Otro", "Otro"],
  ]);
  expect(fieldErrorsIn(page.text)).toEqual([]);
});

test("a valid form stores every field and updatedAt, goes to /, and the next page says so exactly once", async () => {
  const { client, user } = await createNewcomer();
  expect(user.updatedAt).toBeNull();
  const startedAt = Date.now();

  const reply = await client.post("/aditionaldata", {
    ...VALID_PROFILE,
    nombreCompleto: "  Ana Quispe Mamani  ",
  });
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/");

  const saved = await userRow(server.db, user.id);
  expect(saved).toMatchObject({
    nombreCompleto: "Ana Quispe Mamani",
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    ciudad: "La Paz",
    genero: "Femenino",
    habilidades: "Robótica y Arduino",
    isAdmin: false,
    email: user.email,
    displayName: user.displayName,
  });
  expect(saved.updatedAt).toBeInstanceOf(Date);
  expect(saved.updatedAt!.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);

  const home = await client.get(reply.location!);
  expect(home.status).toBe(200);
  expect(alertsIn(home.text)).toEqual([SAVED]);
  const again = await client.get("/");
  expect(alertsIn(again.text)).toEqual([]);
  expect(again.text).not.toContain(SAVED);
});

test("habilidades may be left empty or be exactly 30 characters long", async () => {
  const empty = await createNewcomer();
  const withoutSkills = await empty.client.post("/aditionaldata", {
    ...VALID_PROFILE,
    habilidades: "",
  });
  expect(withoutSkills.status).toBe(302);
  expect((await userRow(server.db, empty.user.id)).habilidades).toBe("");

  const full = await createNewcomer();
  const thirty = "h".repeat(30);
  const withSkills = await full.client.post("/aditionaldata", {
    ...VALID_PROFILE,
    habilidades: thirty,
  });
  expect(withSkills.status).toBe(302);
  expect((await userRow(server.db, full.user.id)).habilidades).toBe(thirty);
});

test("after saving, the member goes to the same-site page they wanted, carried by the form's redirectTo", async () => {
  const { client, user } = await createNewcomer();
  const page = await client.get("/aditionaldata?redirectTo=%2Fprofile%3Feditar%3D1");
  expect(page.text).toContain('<input type="hidden" name="redirectTo" value="/profile?editar=1"/>');

  const reply = await client.post("/aditionaldata", {
    ...VALID_PROFILE,
    redirectTo: "/profile?editar=1",
  });
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/profile?editar=1");
  expect((await userRow(server.db, user.id)).nombreCompleto).toBe(VALID_PROFILE.nombreCompleto);
});

test.each([
  "//evil.example",
  "https://evil.example/",
  "/\\evil.example",
  "/..//evil.example",
  "javascript:alert(1)",
])("a redirectTo of %s leads to / instead of another site", async (redirectTo) => {
  const { client } = await createNewcomer();
  const reply = await client.post("/aditionaldata", { ...VALID_PROFILE, redirectTo });
  expect(reply.status).toBe(302);
  expect(reply.location).toBe(new URL("/", server.url).toString());
});

test.each(BAD_INPUTS)(
  "the form refuses $title with status 400, a message next to $field, and stores nothing",
  async ({ form, field, message }) => {
    const { client, user } = await createNewcomer();
    const reply = await client.post("/aditionaldata", form());
    expect(reply.status).toBe(400);
    expect(fieldErrorOf(reply.text, field)).toBe(message);
    expect(controlOf(reply.text, field)).toContain('aria-invalid="true"');
    expect(controlOf(reply.text, field)).toMatch(
      new RegExp(`aria-describedby="[^"]*\\bprofile-${field}-error\\b`),
    );
    expect(await userRow(server.db, user.id)).toEqual(user);
  },
);

test("fields the form does not have (isAdmin, uid, email) are refused with the unknown-fields message and change nothing", async () => {
  const { client, user } = await createNewcomer();
  const reply = await client.post("/aditionaldata", {
    ...VALID_PROFILE,
    isAdmin: "true",
    uid: randomUUID(),
    email: "otra@example.com",
  });
  expect(reply.status).toBe(400);
  const [alert, ...others] = alertsIn(reply.text);
  expect(others).toEqual([]);
  expect(alert).toContain(UNKNOWN_FIELDS_MESSAGE);
  expect(alert).toContain("isAdmin");
  const after = await userRow(server.db, user.id);
  expect(after).toEqual(user);
  expect(after.isAdmin).toBe(false);
});

test("a file uploaded in a text field is refused as a value of the wrong type and stores nothing", async () => {
  const { client, user } = await createNewcomer();
  const body = new FormData();
  for (const [key, value] of Object.entries(VALID_PROFILE)) body.append(key, value);
  body.set("nombreCompleto", new File(["Ana Quispe"], "nombre.txt", { type: "text/plain" }));
  const reply = await client.request("POST", "/aditionaldata", { body });
  expect(reply.status).toBe(400);
  expect(fieldErrorOf(reply.text, "nombreCompleto")).toBe("Este campo tiene un valor no válido.");
  expect(await userRow(server.db, user.id)).toEqual(user);
});

test("the same form sent as multipart without files is accepted", async () => {
  const { client, user } = await createNewcomer();
  const body = new FormData();
  for (const [key, value] of Object.entries(VALID_PROFILE)) body.append(key, value);
  const reply = await client.request("POST", "/aditionaldata", { body });
  expect(reply.status).toBe(302);
  expect((await userRow(server.db, user.id)).nombreCompleto).toBe(VALID_PROFILE.nombreCompleto);
});

test("a form posted from another site is refused with 403 and stores nothing", async () => {
  const { client, user } = await createNewcomer();
  const reply = await client.post("/aditionaldata", VALID_PROFILE, {
    origin: "https://evil.example",
  });
  expect(reply.status).toBe(403);
  expect(await userRow(server.db, user.id)).toEqual(user);
});

test("what a person typed is shown back as text, never as HTML, when the form is refused", async () => {
  const { client } = await createNewcomer();
  const reply = await client.post("/aditionaldata", {
    ...VALID_PROFILE,
    pais: '"><script>alert(1)</script>',
    genero: "Robot",
  });
  expect(reply.status).toBe(400);
  expect(reply.text).not.toContain("<script>alert(1)</script>");
  expect(controlOf(reply.text, "pais")).toContain(
    'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
  );
});
