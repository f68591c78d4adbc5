// Micromouse course page (§2 "Micromouse course page"): a full-screen carousel that never moves by
// itself, the course card marked 'Seleccionado', and 'INSCRÍBETE' opening 'Inscríbete Ahora'.
// The slides, course, price, dates, texts and links are the landing sections admins edit at
// /admin/sitio; the fixed words come from app/site/copy/course.ts. Without a registration form or a
// group link there is no INSCRÍBETE (a button without data is not shown).
import { useState } from "react";
import { Carousel } from "~/site/components/carousel";
import { LandingImage } from "~/site/components/landing-image";
import { Dialog } from "~/ui/dialog";
import { ExternalAction } from "~/site/components/external-action";
import { ShaderBackground } from "~/site/components/shader-background";
import { coursePage } from "~/site/copy/course";
import { isHttpUrl } from "~/kernel/checks";
import { pageTitle } from "~/site/title";
import { Link } from "react-router";
import { getEventForViewer } from "~/events/event.server";
import { getUser } from "~/guards.server";
import { landingEvent } from "~/landing-events.server";
import { loadDemoSections, loadSiteSections } from "~/site/sections.server";
import { DemoNote } from "~/site/components/demo-note";
import { demoNotes } from "~/site/copy/demo-notes";
import type { Route } from "./+types/clase1";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ request, context }: Route.LoaderArgs) {
  const [content, demo] = await Promise.all([
    loadSiteSections(context.db),
    loadDemoSections(context.db),
  ]);
  const course = content.course;
  // The site's event the course registers in (decisions 048 and 076): its dates, sessions, price
  // and seats. Once it is over the page says so and takes no registration. The group's link is
  // for those registered in it.
  const now = context.now();
  const linked = await landingEvent(context.db, course.eventId, now, context.config.siteTimezone);
  const open = linked && !linked.over ? linked : null;
  let registered = false;
  if (open) {
    const user = await getUser(request, context);
    registered = user
      ? Boolean((await getEventForViewer(context.db, open.id, user.id))?.participating)
      : false;
  }
  return {
    course: {
      ...course,
      // The linked event's own price and dates, never the section's words, on the card.
      price: linked ? linked.price : course.price,
      dates: linked ? linked.dateLabel : course.dates,
      // The group's invitation is not handed out before registering in the site's event.
      groupHref: linked && !registered ? "" : course.groupHref,
      // With the site's event, the outside form is not offered.
      formHref: linked ? "" : course.formHref,
    },
    event: open
      ? {
          id: open.id,
          price: open.price,
          when: open.dateLabel,
          dateIso: open.dateIso,
          place: open.place,
          sessions: open.sessions,
          seats: open.seats,
        }
      : null,
    over: Boolean(linked?.over),
    registered,
    // Demo links (SEED_DEMO) are said to be examples, beside INSCRÍBETE and in its dialog.
    demo: demo.includes("course"),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  const { course } = loaderData;
  const title = pageTitle(`${course.heading}: ${course.name}`);
  const description = [course.summary, course.dates, course.price]
    .filter(Boolean)
    .map((part) => (part.endsWith(".") ? part : `${part}.`))
    .join(" ");
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
}

export default function CoursePage({ loaderData }: Route.ComponentProps) {
  const { course, demo, event, over, registered } = loaderData;
  const canEnrol = event !== null || isHttpUrl(course.formHref) || isHttpUrl(course.groupHref);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [selected, setSelected] = useState(course.name);
  const isSelected = selected === course.name;

  return (
    <div className="landing course-page">
      <ShaderBackground />
      {course.slides.length > 0 ? (
        <Carousel
          className="carousel-full"
          label={coursePage.carouselLabel}
          heading={<h1>{course.heading}</h1>}
          slides={course.slides.map((slide, i) => ({
            key: String(i),
            label: slide.title,
            content: (
              <div className="carousel-slide-inner">
                <LandingImage
                  src={slide.image}
                  alt={slide.imageAlt}
                  width={800}
                  height={450}
                  sizes="100vw"
                  loading={i === 0 ? "eager" : "lazy"}
                  fetchPriority={i === 0 ? "high" : undefined}
                />
                <div className="carousel-caption">
                  <p className="carousel-title">{slide.title}</p>
                  {slide.text ? <p>{slide.text}</p> : null}
                </div>
              </div>
            ),
          }))}
        />
      ) : (
        <header className="landing-hero">
          <h1>{course.heading}</h1>
        </header>
      )}

      <section className="landing-section" aria-labelledby="course-list-title">
        <h2 id="course-list-title">{coursePage.coursesTitle}</h2>
        {course.intro ? <p className="section-intro">{course.intro}</p> : null}
        <ul className="course-cards">
          <li>
            <article
              className={isSelected ? "course-card is-selected" : "course-card"}
              aria-labelledby="course-name"
            >
              {course.image ? (
                <LandingImage
                  className="panel-image"
                  src={course.image}
                  alt=""
                  width={800}
                  height={450}
                  sizes="(max-width: 768px) 100vw, 50vw"
                />
              ) : null}
              <div className="course-card-body">
                <p className="course-card-top">
                  <button
                    type="button"
                    className="badge badge-button"
                    aria-pressed={isSelected}
                    onClick={() => setSelected(isSelected ? "" : course.name)}
                  >
                    {isSelected ? coursePage.selectedLabel : coursePage.selectLabel}
                    <span className="visually-hidden">: {course.name}</span>
                  </button>
                  {course.price ? <span className="price">{course.price}</span> : null}
                </p>
                <h3 id="course-name">{course.name}</h3>
                {course.dates ? (
                  <p className="course-card-dates">
                    {event ? <time dateTime={event.dateIso}>{course.dates}</time> : course.dates}
                  </p>
                ) : null}
                {event?.place ? <p className="muted">{event.place}</p> : null}
                {event && event.sessions.length > 0 ? (
                  <p className="muted">{`${event.sessions.length} sesiones`}</p>
                ) : null}
                {event?.seats ? <p className="badge">{event.seats}</p> : null}
                {over ? <p className="badge">{coursePage.overLabel}</p> : null}
                {course.summary ? <p className="muted">{course.summary}</p> : null}
                {canEnrol ? (
                  <button
                    type="button"
                    className="button button-enrol"
                    onClick={() => setDialogOpen(true)}
                  >
                    {coursePage.enrolLabel}
                  </button>
                ) : null}
                {canEnrol && demo ? <DemoNote>{demoNotes.course}</DemoNote> : null}
              </div>
            </article>
          </li>
        </ul>
      </section>

      {canEnrol ? (
        <Dialog
          open={dialogOpen}
          onClose={() => setDialogOpen(false)}
          title={coursePage.dialogTitle}
          closeLabel={coursePage.closeLabel}
        >
          {demo ? <DemoNote>{demoNotes.course}</DemoNote> : null}
          {course.description ? <p>{course.description}</p> : null}
          {event ? (
            <dl className="course-event">
              <div>
                <dt>Precio</dt>
                <dd>{event.price}</dd>
              </div>
              <div>
                <dt>Fechas</dt>
                <dd>{event.when}</dd>
              </div>
              {event.sessions.length > 0 ? (
                <div>
                  <dt>Sesiones</dt>
                  <dd>
                    <ul className="course-sessions">
                      {event.sessions.map((session) => (
                        <li key={session}>{session}</li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ) : null}
              {event.seats ? (
                <div>
                  <dt>Cupos</dt>
                  <dd>{event.seats}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p className="muted">
              {[course.name, course.dates, course.price].filter(Boolean).join(" · ")}
            </p>
          )}
          <ul className="dialog-links">
            {event ? (
              <li>
                <Link className="button" to={`/detalles/${event.id}`}>
                  {registered ? coursePage.registeredLabel : coursePage.registerLabel}
                </Link>
              </li>
            ) : null}
            {!event && isHttpUrl(course.formHref) ? (
              <li>
                <ExternalAction href={course.formHref} label={coursePage.formLabel} />
              </li>
            ) : null}
            {isHttpUrl(course.groupHref) ? (
              <li>
                <ExternalAction
                  href={course.groupHref}
                  label={course.groupLabel || "Grupo del curso"}
                  className="button button-secondary"
                />
              </li>
            ) : null}
          </ul>
        </Dialog>
      ) : null}
    </div>
  );
}
