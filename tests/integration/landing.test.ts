// The landing pages from the server (§2 Home, /events, /clase1): what the home page shows from the
// database, that only safe image addresses reach src, and the visitor-only call to action.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { zonedToInstant } from "~/kernel/time";
import { events, notes, projects } from "~/db/schema.server";
import { failOnConsoleError } from "../helpers/console";
import { BrowserClient } from "../helpers/browser-client";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInMember } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

failOnConsoleError();

function isoDate(daysFromNow: number): string {
  return new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);
}

async function createEvent(nombreEvento: string, daysFromNow: number, imagenEnlace: string) {
  const fechaEvento = isoDate(daysFromNow);
  const [row] = await server.db
    .insert(events)
    .values({
      nombreEvento,
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      enlacesVirtuales: [],
      fechaEvento,
      horaEvento: "18:00",
      startsAt: zonedToInstant(fechaEvento, "18:00", server.config.siteTimezone),
      endsAt: zonedToInstant(fechaEvento, "20:00", server.config.siteTimezone),
      imagenEnlace,
      descripcion: "Descripción",
      publishedByName: "Admin",
    })
    .returning();
  return row!;
}

const UNSAFE_IMAGES = [
  "javascript:alert(1)",
  "data:image/svg+xml,<svg></svg>",
  "//evil.example/x.png",
  "/\\evil.example/x.png",
  "ftp://example.com/x.png",
];

test("the home page shows upcoming events, latest notes and projects, and only safe image addresses", async () => {
  const marker = randomUUID().slice(0, 8);
  const safe = await createEvent(
    `Evento seguro ${marker}`,
    3,
    "https://images.example.com/evento.png",
  );
  const local = await createEvent(`Evento local ${marker}`, 4, "/demo/vision.svg");
  const past = await createEvent(`Evento pasado ${marker}`, -3, "");
  for (const [i, url] of UNSAFE_IMAGES.slice(0, 1).entries())
    await createEvent(`Evento raro ${i} ${marker}`, 5, url);
  const [note] = await server.db
    .insert(notes)
    .values({
      titulo: `<script>alert("nota")</script> ${marker}`,
      texto: "Línea uno\nLínea dos",
      enlaceImagen: UNSAFE_IMAGES[1]!,
      publisherName: "Admin",
    })
    .returning();
  const [project] = await server.db
    .insert(projects)
    .values({
      titulo: `Proyecto ${marker}`,
      descripcion: "Un robot",
      enlacesImagen: [
        UNSAFE_IMAGES[2]!,
        UNSAFE_IMAGES[3]!,
        "https://images.example.com/proyecto.png",
      ],
      publisherName: "Admin",
    })
    .returning();

  const reply = await new BrowserClient(server.url).get("/");
  expect(reply.status).toBe(200);
  const html = reply.text;
  expect(html).toContain(`href="/detalles/${safe.id}"`);
  expect(html).toContain(`href="/detalles/${local.id}"`);
  expect(html).not.toContain(past.id);
  expect(html).toContain('src="https://images.example.com/evento.png"');
  expect(html).toContain('src="/demo/vision.svg"');
  expect(html).toContain(`href="/notas/${note!.id}"`);
  expect(html).toContain(`&lt;script&gt;alert(&quot;nota&quot;)&lt;/script&gt; ${marker}`);
  expect(html).not.toContain('<script>alert("nota")');
  expect(html).toContain(`href="/proyectos/${project!.id}"`);
  // The first usable image of the project's list.
  expect(html).toContain('src="https://images.example.com/proyecto.png"');
  for (const url of UNSAFE_IMAGES) {
    expect(html).not.toContain(`src="${url}"`);
    expect(html).not.toContain(`src="${url.replaceAll("<", "&lt;").replaceAll(">", "&gt;")}"`);
  }
  expect(html).not.toMatch(/src="(javascript|data):/);
  expect(html).toContain('href="/eventos"');
  expect(html).toContain('href="/notas"');
  expect(html).toContain('href="/proyectos"');
  expect(html).toContain('href="/events"');
});

test("/inicio is the same home page", async () => {
  const reply = await new BrowserClient(server.url).get("/inicio");
  expect(reply.status).toBe(200);
  // Community shows once an admin adds people or logos (site-sections.test.ts).
  for (const id of ["hero", "courses", "events", "articles", "featured"])
    expect(reply.text).toContain(`id="${id}"`);
});

test("'Únete a la comunidad' is shown to visitors only", async () => {
  const visitor = await new BrowserClient(server.url).get("/");
  expect(visitor.text).toContain("Únete a la comunidad");
  const member = await signInMember(server.url, `miembro-${randomUUID()}@example.com`);
  const home = await member.get("/");
  expect(home.status).toBe(200);
  expect(home.text).not.toContain("Únete a la comunidad");
  expect(home.text).toContain("Próximos eventos");
});

test("/events and /clase1 answer with their whole content and their own titles", async () => {
  const client = new BrowserClient(server.url);
  const competition = await client.get("/events");
  expect(competition.status).toBe(200);
  // A new site's defaults name no date (decision 076): the edition alone.
  expect(competition.text).toMatch(/<title>Clash Robotics —/);
  expect(competition.text).toContain("Ubicación: Obrajes C2, La Paz, Bolivia");
  const course = await client.get("/clase1");
  expect(course.status).toBe(200);
  expect(course.text).toMatch(/<title>Curso Preparatorio Micromouse/);
  expect(course.text).toContain("El Camino del Ratón");
  expect(course.text).toContain("30bs");
});
