// A little demo content for a new laptop install, seeded once per database (npm start).
import {
  followSessions,
  giveEventsTheirSessions,
  sessionsOfRule,
} from "~/events/event-sessions.server";
import { defaultEndsAt } from "~/events/event-commands.server";
import { zonedToInstant } from "~/kernel/time";
import type { Db } from "~/db/client.server";
import { and, eq } from "drizzle-orm";
import {
  appMeta,
  competitionCategories,
  competitionTeams,
  events,
  eventSessions,
  judgingRuns,
  notes,
  participations,
  projects,
  resources,
  schools,
  teamInspections,
  teamMembers,
  users,
} from "~/db/schema.server";
import { DEMO_SECTIONS, demoLinkedSections } from "~/site/copy/demo-sections";
import { forgetSiteSections, seedDemoSections } from "~/site/sections.server";

const SEEDED_KEY = "demo_seeded_at";

function isoDate(daysFromNow: number): string {
  return new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);
}

/** The first day from `daysFromNow` on that falls on `weekday` (0 Sunday … 6 Saturday). */
function nextWeekday(daysFromNow: number, weekday: number): number {
  const day = new Date(Date.now() + daysFromNow * 86_400_000).getUTCDay();
  return daysFromNow + ((weekday - day + 7) % 7);
}

/** The demo's example people (team members): no e-mail anyone reads, no way to sign in as them. */
const DEMO_ISSUER = "https://demo.invalid";

export async function seedDemoSite(db: Db, timeZone = "America/La_Paz"): Promise<boolean> {
  const seeded = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(appMeta)
      .values({ key: SEEDED_KEY, value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) return false;

    // Dated from today: upcoming ones stay upcoming, the past one past, named with its own year.
    const pastMeetup = isoDate(-200);
    const courseDay = isoDate(nextWeekday(35, 1));
    const clubDay = isoDate(nextWeekday(3, 6));
    // The demo competition (decision 076): its qualifying round was a week ago, its final is on a
    // Saturday six weeks from now.
    const qualifyingDay = isoDate(-7);
    const finalDay = isoDate(nextWeekday(42, 6));
    const demoEvents = [
      {
        nombreEvento: "Taller de Arduino para principiantes",
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial" as const,
        enlacesVirtuales: [],
        fechaEvento: isoDate(14),
        horaEvento: "18:30",
        imagenEnlace: "/demo/taller-arduino.svg",
        ubicacionEspecifica: "Obrajes C2",
        descripcion:
          "Armamos juntos nuestro primer circuito: LEDs, sensores y un motor.\nTrae tu laptop.",
      },
      {
        nombreEvento: "Charla: visión por computadora con software libre",
        ubicacionEvento: "Bolivia, Cochabamba",
        tipoEvento: "Hibrido" as const,
        enlacesVirtuales: ["https://meet.jit.si/ayllu-vision"],
        fechaEvento: isoDate(30),
        horaEvento: "19:00",
        imagenEnlace: "/demo/vision.svg",
        ubicacionEspecifica: null,
        descripcion: "OpenCV, cámaras baratas y un robot que sigue una pelota.",
      },
      {
        // A course of four evenings (decision 043), after the others so the home page shows them.
        nombreEvento: "El Camino del Ratón: curso preparatorio de Micromouse",
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial" as const,
        enlacesVirtuales: [],
        fechaEvento: courseDay,
        horaEvento: "19:00",
        imagenEnlace: "/demo/micromouse.svg",
        ubicacionEspecifica: "Laboratorio de la comunidad",
        descripcion:
          "Cuatro tardes para armar y programar tu ratón robot, de los sensores al algoritmo que resuelve el laberinto.\nCertificado para quien asista al 75 % de las sesiones.",
      },
      {
        // A weekly club (decision 045): a rule of sessions and no certificate.
        nombreEvento: "Club de robótica de los sábados",
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial" as const,
        enlacesVirtuales: [],
        fechaEvento: clubDay,
        horaEvento: "10:00",
        imagenEnlace: "/demo/club.svg",
        ubicacionEspecifica: "Laboratorio de la comunidad",
        descripcion:
          "Nos reunimos cada sábado a construir, probar y arreglar robots. Inscríbete una vez: te recordamos cada reunión y puedes avisar si faltas a una.",
      },
      {
        nombreEvento: "Torneo de robótica de ejemplo",
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial" as const,
        enlacesVirtuales: [],
        fechaEvento: qualifyingDay,
        horaEvento: "09:00",
        imagenEnlace: "/landing/venue.svg",
        ubicacionEspecifica: "Obrajes C2",
        descripcion:
          "Una competencia de demostración: la clasificatoria de Seguidor de línea ya tiene resultados; la final, con Robot Sumo y Micromouse, recibe inscripciones.",
      },
      {
        nombreEvento: `Encuentro de la comunidad ${pastMeetup.slice(0, 4)}`,
        ubicacionEvento: "Bolivia, Santa Cruz",
        tipoEvento: "Presencial" as const,
        enlacesVirtuales: [],
        fechaEvento: pastMeetup,
        horaEvento: "10:00",
        imagenEnlace: "/demo/encuentro.svg",
        ubicacionEspecifica: null,
        descripcion: "Proyectos, demostraciones y mucha soldadura.",
      },
    ];
    await tx.insert(events).values(
      demoEvents.map((e) => ({
        ...e,
        startsAt: zonedToInstant(e.fechaEvento, e.horaEvento, timeZone),
        endsAt: defaultEndsAt(zonedToInstant(e.fechaEvento, e.horaEvento, timeZone)),
        publishedByName: "Ayllu",
      })),
    );
    await giveEventsTheirSessions(tx, timeZone);
    // The course's other three evenings, and the club's next seven Saturdays.
    const more = async (
      nombre: string,
      rule: Parameters<typeof sessionsOfRule>[0],
      share?: null,
    ) => {
      const [event] = await tx
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.nombreEvento, nombre), eq(events.publishedByName, "Ayllu")));
      const spans = sessionsOfRule(rule, timeZone);
      await tx.insert(eventSessions).values(spans.map((s) => ({ eventId: event!.id, ...s })));
      await followSessions(tx, event!.id, timeZone);
      if (share === null)
        await tx.update(events).set({ certificateShare: null }).where(eq(events.id, event!.id));
    };
    const after = (day: string, n: number) =>
      new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    await more("El Camino del Ratón: curso preparatorio de Micromouse", {
      regla: "laborables",
      desde: after(courseDay, 1),
      hasta: after(courseDay, 3),
      inicio: "19:00",
      duracion: "120",
    });
    await more(
      "Club de robótica de los sábados",
      {
        regla: "semanal",
        desde: after(clubDay, 1),
        semanas: "7",
        dias: ["6"],
        inicio: "10:00",
        duracion: "120",
      },
      null,
    );
    const competitionId = await seedDemoCompetition(tx, {
      nombre: demoEvents[4]!.nombreEvento,
      qualifyingDay,
      finalDay,
      timeZone,
    });
    await tx.insert(notes).values([
      {
        titulo: "¡Bienvenidos a Ayllu!",
        texto:
          "Este es el nuevo sitio de la comunidad. Inicia sesión, completa tu perfil y únete a los eventos.",
        publisherName: "Admin",
        // A minute older than the next: two notes of one instant would be ordered by their random
        // ids, differently on every new database.
        createdAt: new Date(Date.now() - 60_000),
      },
      {
        titulo: "Se viene la competencia",
        texto:
          "Cursos de Micromouse, Robot Sumo y Seguidor de línea antes de la competencia: sus fechas y categorías están en la página de la competencia.",
        publisherName: "Admin",
      },
    ]);
    await tx.insert(resources).values({
      titulo: "Guía de soldadura",
      subtitulos: "Herramientas, seguridad y práctica",
      texto: "Todo lo que necesitas para soldar tu primera placa.",
      publisherName: "Admin",
    });
    await tx.insert(projects).values({
      titulo: "Micromouse Ayllu",
      descripcion: "Un ratón robot que resuelve laberintos, diseñado por la comunidad.",
      publisherName: "Admin",
    });
    // The sections a real site hides until they have content, filled and marked as demo content
    // (docs/decisions/042-demo-sections.md); written before the defaults, which then fill the rest.
    const [course] = await tx
      .select({ id: events.id })
      .from(events)
      .where(
        and(
          eq(events.nombreEvento, "El Camino del Ratón: curso preparatorio de Micromouse"),
          eq(events.publishedByName, "Ayllu"),
        ),
      );
    await seedDemoSections(tx, {
      ...DEMO_SECTIONS,
      ...demoLinkedSections({ course: course!.id, competition: competitionId }),
    });
    return true;
  });
  if (seeded) forgetSiteSections(db);
  return seeded;
}

/**
 * The demo competition's categories, teams and results (decision 076), all marked as examples: a
 * time trial whose qualifying round is over, with its results marked final; Robot Sumo with two
 * teams and Micromouse with none, taking registrations until the week before the final.
 */
async function seedDemoCompetition(
  tx: Db,
  demo: { nombre: string; qualifyingDay: string; finalDay: string; timeZone: string },
): Promise<string> {
  const { timeZone } = demo;
  const [event] = await tx
    .select({ id: events.id, startsAt: events.startsAt })
    .from(events)
    .where(and(eq(events.nombreEvento, demo.nombre), eq(events.publishedByName, "Ayllu")));
  const eventId = event!.id;
  const finalAt = zonedToInstant(demo.finalDay, "09:00", timeZone);
  await tx
    .insert(eventSessions)
    .values({ eventId, startsAt: finalAt, endsAt: defaultEndsAt(finalAt) });
  await followSessions(tx, eventId, timeZone);
  const qualifyingAt = event!.startsAt;
  const closes = new Date(finalAt.getTime() - 7 * 86_400_000);
  const category = (
    position: number,
    name: string,
    format: "tiempo" | "llaves",
    startsAt: Date,
    registrationClosesAt: Date,
  ) => ({
    eventId,
    position,
    name,
    level: "abierta",
    minMembers: 1,
    maxMembers: 3,
    coachRequired: false,
    robotRules: "Reglas de ejemplo: un robot autónomo de hasta 20 cm por lado.",
    maxSizeCm: 20,
    format,
    attempts: 2,
    startsAt,
    registrationClosesAt,
  });
  const [line, sumo] = await tx
    .insert(competitionCategories)
    .values([
      {
        ...category(1, "Seguidor de línea (clasificatoria)", "tiempo", qualifyingAt, qualifyingAt),
        finalAt: new Date(qualifyingAt.getTime() + 3 * 3_600_000),
        finalByName: "Jurado de ejemplo",
      },
      category(2, "Robot Sumo", "llaves", finalAt, closes),
      category(3, "Micromouse", "tiempo", finalAt, closes),
    ])
    .returning({ id: competitionCategories.id });
  const [school, university] = await tx
    .insert(schools)
    .values([{ name: "Colegio de ejemplo" }, { name: "Universidad de ejemplo" }])
    .onConflictDoNothing()
    .returning({ id: schools.id });
  const teams = [
    {
      name: "Equipo de ejemplo Cóndor",
      robot: "Rayo",
      school,
      category: line,
      times: [18_420, 17_905],
    },
    {
      name: "Equipo de ejemplo Puma",
      robot: "Flecha",
      school: university,
      category: line,
      times: [21_310, null],
    },
    {
      name: "Equipo de ejemplo Llama",
      robot: "Chasqui",
      school,
      category: line,
      times: [19_880, 19_150],
    },
    {
      name: "Equipo de ejemplo Vicuña",
      robot: "Tortuga",
      school: university,
      category: sumo,
      times: [],
    },
    { name: "Equipo de ejemplo Colibrí", robot: "Roca", school, category: sumo, times: [] },
  ];
  for (const [i, team] of teams.entries()) {
    const [member] = await tx
      .insert(users)
      .values({
        issuer: DEMO_ISSUER,
        subject: `integrante-${i + 1}`,
        email: `integrante-${i + 1}@example.org`,
        nombreCompleto: `Integrante de ejemplo ${i + 1}`,
      })
      .returning({ id: users.id });
    const [row] = await tx
      .insert(competitionTeams)
      .values({
        eventId,
        categoryId: team.category!.id,
        name: team.name,
        schoolId: team.school!.id,
        city: "La Paz",
        robotName: team.robot,
        captainId: member!.id,
        status: "approved",
        reviewedByName: "Organización de ejemplo",
        reviewedAt: new Date(qualifyingAt.getTime() - 10 * 86_400_000),
      })
      .returning({ id: competitionTeams.id });
    await tx
      .insert(teamMembers)
      .values({ teamId: row!.id, userId: member!.id, categoryId: team.category!.id });
    if (team.times.length === 0) continue;
    // Those who ran the qualifying round came through the door and passed the inspection.
    await tx
      .insert(participations)
      .values({ userId: member!.id, eventId, seat: false, checkedInAt: qualifyingAt });
    await tx
      .insert(teamInspections)
      .values({ teamId: row!.id, result: "passed", inspectedByName: "Jurado de ejemplo" });
    await tx.insert(judgingRuns).values(
      team.times.map((timeMs, attempt) => ({
        categoryId: team.category!.id,
        teamId: row!.id,
        attempt: attempt + 1,
        timeMs,
        enteredByName: "Jurado de ejemplo",
      })),
    );
  }
  return eventId;
}
