// The demo's landing content (SEED_DEMO, `npm start`): what a new laptop install shows in the
// sections that a real site leaves hidden until an admin fills them — leaders, allies, sponsors,
// the course's registration links and a YouTube link for 'Our Talks'
// (docs/decisions/042-demo-sections.md).
// Nobody here is a real person or organisation, no link pretends to be the community's: the links
// go to example.org (reserved for examples) and to a YouTube search, and every page that shows
// this content says it is a demonstration until an admin saves the section at /admin/sitio (the
// words: demo-notes.ts, apart so that the pages' scripts do not carry this content).
import type { SiteSections } from "~/site/sections";
import { SITE_DEFAULTS } from "./section-defaults";

export type DemoSectionKey =
  "leaders" | "allies" | "sponsors" | "course" | "social" | "courses" | "competition";

const leaderRoles = [
  "Mentoría de Micromouse",
  "Talleres de Arduino",
  "Robot Sumo",
  "Seguidor de línea",
  "Eventos de la comunidad",
];

export const DEMO_SECTIONS: Pick<
  SiteSections,
  Exclude<DemoSectionKey, "courses" | "competition">
> = {
  leaders: {
    leaders: leaderRoles.map((role, i) => ({
      name: `Persona de ejemplo ${i + 1}`,
      role,
      image: `/demo/persona-${i + 1}.svg`,
    })),
  },
  allies: {
    allies: [
      {
        name: "Universidad de ejemplo",
        description: "Presta aulas y laboratorios para los cursos.",
        logo: "/demo/aliado-1.svg",
        href: "",
      },
      {
        name: "Club de robótica de ejemplo",
        description: "Comparte mentores y pistas de práctica.",
        logo: "/demo/aliado-2.svg",
        href: "",
      },
      {
        name: "Hackerspace de ejemplo",
        description: "Abre su taller a los equipos antes de la competencia.",
        logo: "/demo/aliado-3.svg",
        href: "",
      },
    ],
  },
  sponsors: {
    intro: SITE_DEFAULTS.sponsors.intro,
    sponsors: [
      {
        name: "Tienda de electrónica de ejemplo",
        description: "Dona los kits de los cursos.",
        logo: "/demo/patrocinador-1.svg",
        href: "",
      },
      {
        name: "Empresa de ejemplo",
        description: "Cubre los premios de la competencia.",
        logo: "/demo/patrocinador-2.svg",
        href: "",
      },
    ],
  },
  course: {
    ...SITE_DEFAULTS.course,
    formHref: "https://example.org/formulario-de-inscripcion",
    groupHref: "https://example.org/grupo-del-curso",
  },
  // A search, not a made-up channel: a demo link must not stand for anyone's account.
  social: { links: ["https://www.youtube.com/results?search_query=micromouse"] },
};

/**
 * The sections that link the demo's own events (decision 076): the course page and the home's
 * course card register in the demo course, and the competition page leads with the demo
 * competition. Their dates are the events', dated from the day the demo is made.
 */
export function demoLinkedSections(ids: {
  course: string;
  competition: string;
}): Pick<SiteSections, "course" | "courses" | "competition"> {
  return {
    course: { ...DEMO_SECTIONS.course, eventId: ids.course },
    courses: {
      ...SITE_DEFAULTS.courses,
      current: SITE_DEFAULTS.courses.current.map((row) => ({ ...row, eventId: ids.course })),
    },
    competition: {
      ...SITE_DEFAULTS.competition,
      // One row for the demo competition, first; the default's pending competitions make way.
      events: [
        { name: "Competencia", when: "", href: "", eventId: ids.competition },
        ...SITE_DEFAULTS.competition.events.filter((row) => !row.name.startsWith("Competencia")),
      ],
    },
  };
}
