// The competitions' mails: a team's place from its category's waiting list (decision 056).
import { eventParts, type Draft, type DraftWriter, type MailSite } from "~/mail/compose.server";
import type { MailKind, QueuedMail } from "~/mail/mail.server";

function teamPlaceDraft(mail: QueuedMail, site: MailSite): Draft {
  const { event, name, details } = eventParts(mail, site);
  const team = mail.data.team!;
  return {
    subject: `¡Tu equipo tiene lugar! ${event!.nombreEvento}`,
    paragraphs: [
      `Se liberó un lugar en la categoría «${team.category}» de ${name} y es del equipo «${team.name}»: salió de la lista de espera.`,
      "Ahora la organización revisa el equipo para aprobarlo. Completa lo que falte (integrantes, entrenador) desde la página del equipo; si ya no pueden participar, retíralo para que el lugar pase al siguiente equipo.",
    ],
    details,
    action: { label: "Ver el equipo", url: `${site.origin}/equipos/${team.id}` },
    reason: "tu equipo estaba en la lista de espera de esta categoría",
  };
}

/** The competitions' kinds of mail, each with its writer. */
export const COMPETITION_DRAFTS = {
  teamPlace: teamPlaceDraft,
} as const satisfies Partial<Record<MailKind, DraftWriter>>;
