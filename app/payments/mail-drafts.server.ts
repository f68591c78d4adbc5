// The payments' mails (decision 048): each step of a paid registration or a team's fee, what
// happened and what the member does now. Transactional: never turned off (app/mail/mail.server.ts).
import {
  cancelsCalendar,
  eventParts,
  type Draft,
  type DraftWriter,
  type MailSite,
} from "~/mail/compose.server";
import type { MailKind, QueuedMail } from "~/mail/mail.server";
import { formatDateTime } from "~/kernel/time";
import { formatBs } from "./money";

function paymentMail(mail: QueuedMail, site: MailSite): Draft {
  const { name, details } = eventParts(mail, site);
  return paymentDraft(mail, name, site, details);
}

/** A payment's step (decision 048): what happened, and what the member does now. */
function paymentDraft(
  mail: QueuedMail,
  name: string,
  site: MailSite,
  details: [string, string][] | undefined,
): Draft {
  const payment = mail.data.payment!;
  const event = mail.data.event!;
  const amount = formatBs(payment.amountCents);
  const until = payment.heldUntil ? formatDateTime(payment.heldUntil, site.timeZone) : "";
  // A team's fee (decision 052) is paid on the same page, for the team; its place is the team's.
  const team = payment.team;
  const pay = team
    ? {
        label: "Pagar la cuota del equipo",
        url: `${site.origin}/detalles/${event.id}/pago?equipo=${team.id}`,
      }
    : { label: "Pagar mi inscripción", url: `${site.origin}/detalles/${event.id}/pago` };
  if (team) return teamFeeDraft(mail.kind, payment, event, name, site, pay, details);
  const facts: [string, string][] = [
    ["Monto", amount],
    ["Código para la glosa", payment.reference],
    ...(details ?? []),
  ];
  const how = [
    `Paga ${amount} por QR desde la app de tu banco y escribe tu código ${payment.reference} en la glosa o descripción de la transferencia. Después envía el comprobante (una foto o el PDF) o el número de transacción desde la página de pago.`,
    ...(payment.instructions ? [payment.instructions] : []),
  ];
  const account = [payment.accountHolder, payment.bank].filter(Boolean).join(" · ");
  if (account) facts.push(["Cuenta", account]);
  const reason = "te inscribiste en este evento, que tiene precio";
  switch (mail.kind) {
    case "paymentPending":
      return {
        subject: `${payment.fromWaitlist ? "¡Tienes una plaza!" : "Reserva tu plaza:"} ${event.nombreEvento}`,
        paragraphs: [
          payment.fromWaitlist
            ? `Se liberó una plaza en ${name} y la reservamos para ti hasta el ${until}: Pendiente de pago.`
            : `Reservamos tu plaza en ${name} hasta el ${until}: Pendiente de pago.`,
          ...how,
          "Si no pagas a tiempo, la plaza pasa a la siguiente persona en espera.",
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "receiptReceived":
      return {
        subject: `Recibimos tu pago: ${event.nombreEvento}`,
        paragraphs: [
          `Recibimos el comprobante de tu pago para ${name}. Tesorería lo revisará y te escribiremos cuando esté confirmado; mientras tanto tu plaza sigue reservada.`,
        ],
        details: facts,
        action: { label: "Ver mi pago", url: pay.url },
        reason,
      };
    case "paymentConfirmed":
      return {
        subject: `${payment.status === "waived" ? "Tienes una beca" : "Pago confirmado"}: ${event.nombreEvento}`,
        paragraphs: [
          payment.status === "waived"
            ? `Tesorería te dio una beca para ${name}: no necesitas pagar. Tu inscripción está confirmada.`
            : `Tesorería confirmó tu pago de ${amount} para ${name}. Tu inscripción está confirmada. Te esperamos.`,
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
    case "paymentRefused":
      return {
        subject: `Revisa tu pago: ${event.nombreEvento}`,
        paragraphs: [
          `Tesorería no pudo confirmar tu pago para ${name}.`,
          `Motivo: ${payment.reason ?? ""}`,
          `Tu plaza sigue reservada hasta el ${until}. Envía el comprobante correcto desde la página de pago.`,
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "holdExpiring":
      return {
        subject: `Tu reserva vence pronto: ${event.nombreEvento}`,
        paragraphs: [
          `Tu plaza en ${name} está reservada hasta el ${until} y todavía no recibimos tu pago.`,
          ...how,
        ],
        details: facts,
        action: pay,
        reason,
      };
    default:
      return {
        subject: `Tu reserva venció: ${event.nombreEvento}`,
        paragraphs: [
          `No recibimos tu pago a tiempo y tu plaza en ${name} pasó a la siguiente persona en espera.`,
          "Si todavía quedan plazas, puedes inscribirte de nuevo desde la página del evento.",
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
  }
}

/** A team's fee's step (decision 052): as a registration's, said of the team's place. */
function teamFeeDraft(
  kind: QueuedMail["kind"],
  payment: NonNullable<QueuedMail["data"]["payment"]>,
  event: NonNullable<QueuedMail["data"]["event"]>,
  name: string,
  site: MailSite,
  pay: { label: string; url: string },
  details: [string, string][] | undefined,
): Draft {
  const team = `«${payment.team!.name}»`;
  const amount = formatBs(payment.amountCents);
  const until = payment.heldUntil ? formatDateTime(payment.heldUntil, site.timeZone) : "";
  const facts: [string, string][] = [
    ["Equipo", payment.team!.name],
    ["Monto", amount],
    ["Código para la glosa", payment.reference],
    ...(details ?? []),
  ];
  const account = [payment.accountHolder, payment.bank].filter(Boolean).join(" · ");
  if (account) facts.push(["Cuenta", account]);
  const how = [
    `Paga ${amount} por QR desde la app de tu banco y escribe el código ${payment.reference} en la glosa o descripción de la transferencia. Después envía el comprobante (una foto o el PDF) o el número de transacción desde la página de pago.`,
    ...(payment.instructions ? [payment.instructions] : []),
  ];
  const reason = "inscribiste un equipo en una categoría con cuota";
  const teamPage = { label: "Ver el equipo", url: `${site.origin}/equipos/${payment.team!.id}` };
  switch (kind) {
    case "paymentPending":
      return {
        subject: `${payment.fromWaitlist ? `¡El equipo ${team} tiene lugar!` : `Cuota del equipo ${team}:`} ${event.nombreEvento}`,
        paragraphs: [
          payment.fromWaitlist
            ? `Se liberó un lugar en ${name} para el equipo ${team}, que estaba en la lista de espera, y lo reservamos hasta el ${until}: Pendiente de pago.`
            : `Reservamos el lugar del equipo ${team} en ${name} hasta el ${until}: Pendiente de pago.`,
          ...how,
          "Si no se paga a tiempo, el equipo se retira y su lugar queda libre.",
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "receiptReceived":
      return {
        subject: `Recibimos el pago del equipo ${team}: ${event.nombreEvento}`,
        paragraphs: [
          `Recibimos el comprobante de la cuota del equipo ${team} para ${name}. Tesorería lo revisará y te escribiremos cuando esté confirmado; mientras tanto su lugar sigue reservado.`,
        ],
        details: facts,
        action: { label: "Ver el pago", url: pay.url },
        reason,
      };
    case "paymentConfirmed":
      return {
        subject: `${payment.status === "waived" ? "Beca para el equipo" : "Cuota confirmada"} ${team}: ${event.nombreEvento}`,
        paragraphs: [
          payment.status === "waived"
            ? `Tesorería dio una beca al equipo ${team} para ${name}: no necesita pagar la cuota.`
            : `Tesorería confirmó la cuota de ${amount} del equipo ${team} para ${name}.`,
        ],
        details: facts,
        action: teamPage,
        reason,
      };
    case "paymentRefused":
      return {
        subject: `Revisa el pago del equipo ${team}: ${event.nombreEvento}`,
        paragraphs: [
          `Tesorería no pudo confirmar la cuota del equipo ${team} para ${name}.`,
          `Motivo: ${payment.reason ?? ""}`,
          `Su lugar sigue reservado hasta el ${until}. Envía el comprobante correcto desde la página de pago.`,
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "holdExpiring":
      return {
        subject: `La reserva del equipo ${team} vence pronto: ${event.nombreEvento}`,
        paragraphs: [
          `El lugar del equipo ${team} en ${name} está reservado hasta el ${until} y todavía no recibimos la cuota.`,
          ...how,
        ],
        details: facts,
        action: pay,
        reason,
      };
    default:
      return {
        subject: `La reserva del equipo ${team} venció: ${event.nombreEvento}`,
        paragraphs: [
          `No recibimos la cuota a tiempo: el equipo ${team} se retiró de ${name} y su lugar quedó libre.`,
          "Si todavía quedan lugares, puedes inscribir el equipo de nuevo desde la página del evento.",
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
  }
}

/** The payments' kinds of mail, each with its writer. */
export const PAYMENT_DRAFTS = {
  paymentPending: paymentMail,
  receiptReceived: paymentMail,
  paymentConfirmed: paymentMail,
  paymentRefused: paymentMail,
  holdExpiring: paymentMail,
  holdExpired: cancelsCalendar(paymentMail),
} as const satisfies Partial<Record<MailKind, DraftWriter>>;
