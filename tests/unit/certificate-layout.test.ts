// The certificate's statement stays above its footer and QR code (app/attendance/
// certificate-pdf.server.ts): with the longest names the forms allow (a member's, an event's, a
// category's, a team's), everything is set smaller rather than drawn over the code.
import { describe, expect, it } from "vitest";
import { statementLayoutOf } from "~/attendance/certificate-pdf.server";
import type { Certificate } from "~/attendance/certificate.server";
import { CATEGORY_LIMITS } from "~/competitions/categories";
import { TEAM_LIMITS } from "~/competitions/teams";
import { EVENT_NAME_MAX, TEXT_MAX } from "~/kernel/limits";

/** `words` repeated up to `length` characters. */
function long(length: number, words: string): string {
  return Array.from({ length }, () => words)
    .join(" ")
    .slice(0, length);
}

function certificate(overrides: Partial<Certificate> = {}): Certificate {
  return {
    code: "ABCDEFGHJKLM",
    nombre: "Ana Quispe",
    attendance: { attended: 1, total: 1, hours: 8 },
    event: {
      id: "00000000-0000-4000-8000-000000000001",
      nombreEvento: "Taller de Arduino",
      startsAt: new Date("2026-12-05T13:00:00Z"),
      endsAt: new Date("2026-12-05T17:00:00Z"),
      ubicacionEvento: "La Paz",
      ubicacionEspecifica: null,
      tipoEvento: "taller",
      certificateShare: 80,
    },
    ...overrides,
  };
}

const settings = { timeZone: "America/La_Paz" };

describe("the certificate's statement", () => {
  it("keeps its full size with names of ordinary length", () => {
    const layout = statementLayoutOf(certificate(), settings);
    expect(layout.scale).toBe(1);
    expect(layout.bottom).toBeLessThanOrEqual(layout.limit);
  });

  it("with the longest names allowed, a place in a competition and several sessions, stays above the footer", () => {
    const longest = certificate({
      nombre: long(TEXT_MAX, "María Fernanda Quispe Mamani"),
      attendance: { attended: 9, total: 10, hours: 36.5 },
      award: {
        label: "1er lugar",
        place: 1,
        category: long(CATEGORY_LIMITS.nameMax, "Seguidores de línea avanzados"),
        team: long(TEAM_LIMITS.nameMax, "Cóndores Andinos"),
        minors: false,
      },
      event: {
        ...certificate().event,
        nombreEvento: long(EVENT_NAME_MAX, "Competencia Nacional de Robótica Educativa"),
        endsAt: new Date("2026-12-06T22:00:00Z"),
        ubicacionEvento: long(EVENT_NAME_MAX, "Universidad Mayor de San Andrés, La Paz"),
        ubicacionEspecifica: long(EVENT_NAME_MAX, "Coliseo cerrado, planta baja"),
      },
    });
    const layout = statementLayoutOf(longest, settings);
    expect(layout.scale).toBeLessThan(1);
    expect(layout.bottom).toBeLessThanOrEqual(layout.limit);
  });
});
