// /certificados/:code — anyone may check a certificate of attendance (who attended which event,
// when and where, given by which community) or of a competition's place (decision 060). Reached
// from the QR code on the certificate itself.
import { Link, redirect } from "react-router";
import { site } from "~/site/copy/site";
import { ErrorPage } from "~/error-page";
import { eventPlace } from "~/events/event-place";
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { formatDateRange } from "~/kernel/time";
import { pageTitle } from "~/site/title";
import {
  certificateUrl,
  attendanceLine,
  findCertificate,
  formatCertificateCode,
  parseCertificateCode,
} from "~/attendance/certificate.server";
import { findAward } from "~/competitions/judging/awards.server";
import { publicName } from "~/competitions/teams";
import type { Route } from "./+types/verify";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ params, context }: Route.LoaderArgs) {
  const parsed = parseCertificateCode(params.code);
  // Of attendance, or by place in a competition's final results (decision 060).
  const certificate =
    (await findCertificate(context.db, params.code, context.now())) ??
    (parsed ? await findAward(context.db, parsed) : null);
  if (!certificate) notFound(MESSAGES.certificateNotFound);
  const { award } = certificate;
  const code = formatCertificateCode(certificate.code);
  // A code typed in small letters or without its dashes goes to the one address of its page.
  if (params.code !== code) throw redirect(`/certificados/${code}`, 301);
  const { event } = certificate;
  return {
    code,
    url: certificateUrl(context.config.publicUrl, certificate.code),
    // Competitors of primary or secondary school are named as the results name them: 'Ana Q.'.
    nombre: award?.minors ? publicName(certificate.nombre) : certificate.nombre,
    kind: !award
      ? "Certificado de asistencia"
      : award.place === null || award.place > 3
        ? "Certificado de participación"
        : `Certificado: ${award.label}`,
    statement: !award
      ? "asistió a"
      : `${award.place === null || award.place > 3 ? "participó" : `obtuvo el ${award.label}`} en la categoría «${award.category}», con el equipo «${award.team}», de`,
    // A course of several sessions: how many they attended, and the hours (decision 044).
    sessions: attendanceLine(certificate.attendance),
    event: {
      id: event.id,
      nombreEvento: event.nombreEvento,
      // A course of several days reads as its range ("Del 16 al 19 de noviembre de 2026").
      date: formatDateRange(event.startsAt, event.endsAt, context.config.siteTimezone),
      startsAt: event.startsAt.toISOString(),
      place: eventPlace(event),
      tipoEvento: event.tipoEvento,
    },
    // Who gets one: of a course of several sessions, those who came to its share of them.
    rule: award
      ? "a cada integrante de los equipos de una competencia según los resultados finales de su categoría"
      : certificate.attendance.total > 1
        ? `a quien asistió al menos al ${event.certificateShare} % de las sesiones, registradas en la entrada`
        : "a quien asistió al evento y fue registrado en la entrada",
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) {
    return [
      { title: pageTitle(MESSAGES.certificateNotFound) },
      { name: "robots", content: "noindex" },
    ];
  }
  const { nombre, event, url, kind, statement } = loaderData;
  const { sessions } = loaderData;
  const description = `${nombre} ${statement} ${event.nombreEvento} el ${event.date}, en ${event.place}.${sessions ? ` ${sessions}.` : ""} ${kind} de ${site.name}.`;
  return [
    { title: pageTitle(`${kind} de ${nombre}`) },
    { name: "description", content: description },
    // People's names stay out of search engines; the page is for whoever holds the certificate.
    { name: "robots", content: "noindex" },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:title", content: `${kind}: ${event.nombreEvento}` },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:site_name", content: site.name },
  ];
}

export default function CertificateCheck({ loaderData }: Route.ComponentProps) {
  const { code, nombre, event, sessions, rule, kind, statement } = loaderData;
  return (
    <section className="page page-narrow" aria-labelledby="certificate-title">
      <div className="card certificate-card">
        <p className="eyebrow">{kind}</p>
        <p className="certificate-valid">
          <span aria-hidden="true">✓</span> Certificado válido
        </p>
        <p className="certificate-intro">Se certifica que</p>
        <h1 id="certificate-title" className="certificate-name">
          {nombre}
        </h1>
        <p className="certificate-intro">{statement}</p>
        <p className="certificate-event">
          <Link to={`/detalles/${event.id}`}>{event.nombreEvento}</Link>
        </p>
        {sessions ? <p className="certificate-sessions">{sessions}</p> : null}
        <dl className="details certificate-details">
          <div className="detail">
            <dt>Fecha</dt>
            <dd>
              <time dateTime={event.startsAt}>{event.date}</time>
            </dd>
          </div>
          <div className="detail">
            <dt>Lugar</dt>
            <dd>{event.place}</dd>
          </div>
          <div className="detail">
            <dt>Comunidad</dt>
            <dd>{`${site.name} — ${site.tagline}`}</dd>
          </div>
          <div className="detail">
            <dt>Código</dt>
            <dd className="certificate-code">{code}</dd>
          </div>
        </dl>
        <p className="muted certificate-note">
          {`${site.name} emite este certificado ${rule}. Esta página lo confirma mientras el certificado siga vigente.`}
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Ver los eventos" }} />;
}
