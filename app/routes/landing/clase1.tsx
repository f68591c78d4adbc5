// Micromouse course page (§2 "Micromouse course page"): a full-screen carousel that never moves by
// itself, the course card marked 'Seleccionado', and 'INSCRÍBETE' opening 'Inscríbete Ahora'.
// The words, price, dates, images and links come from app/content/course.ts.
import { useState } from "react";
import { Carousel } from "~/components/landing/carousel";
import { Dialog } from "~/components/dialog";
import { ExternalAction } from "~/components/external-action";
import { ShaderBackground } from "~/components/landing/shader-background";
import { course, coursePage } from "~/content/course";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/clase1";

export function meta(_: Route.MetaArgs) {
  const title = pageTitle(`${coursePage.heading}: ${course.name}`);
  const description = `${course.summary} ${course.dates}. ${course.price}.`;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
}

export default function CoursePage() {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [selected, setSelected] = useState(course.name);
  const isSelected = selected === course.name;

  return (
    <div className="landing course-page">
      <ShaderBackground />
      <Carousel
        className="carousel-full"
        label={coursePage.carouselLabel}
        heading={<h1>{coursePage.heading}</h1>}
        slides={coursePage.slides.map((slide, i) => ({
          key: slide.title,
          label: slide.title,
          content: (
            <div className="carousel-slide-inner">
              <img
                src={slide.image}
                alt={slide.imageAlt}
                width={800}
                height={450}
                decoding="async"
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : undefined}
              />
              <div className="carousel-caption">
                <p className="carousel-title">{slide.title}</p>
                <p>{slide.text}</p>
              </div>
            </div>
          ),
        }))}
      />

      <section className="landing-section" aria-labelledby="course-list-title">
        <h2 id="course-list-title">{coursePage.coursesTitle}</h2>
        <p className="section-intro">{coursePage.intro}</p>
        <ul className="course-cards">
          <li>
            <article
              className={isSelected ? "course-card is-selected" : "course-card"}
              aria-labelledby="course-name"
            >
              <img
                className="panel-image"
                src={course.image}
                alt=""
                width={800}
                height={450}
                loading="lazy"
                decoding="async"
              />
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
                  <span className="price">{course.price}</span>
                </p>
                <h3 id="course-name">{course.name}</h3>
                <p className="course-card-dates">{course.dates}</p>
                <p className="muted">{course.summary}</p>
                <button
                  type="button"
                  className="button button-enrol"
                  onClick={() => setDialogOpen(true)}
                >
                  {course.enrolLabel}
                </button>
              </div>
            </article>
          </li>
        </ul>
      </section>

      <Dialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        title={course.dialog.title}
        closeLabel={course.dialog.closeLabel}
      >
        <p>{course.dialog.description}</p>
        <p className="muted">
          {course.name} · {course.dates} · {course.price}
        </p>
        <ul className="dialog-links">
          <li>
            <ExternalAction href={course.dialog.formHref} label={course.dialog.formLabel} />
          </li>
          <li>
            <ExternalAction
              href={course.dialog.groupHref}
              label={course.dialog.groupLabel}
              className="button button-secondary"
            />
          </li>
        </ul>
      </Dialog>
    </div>
  );
}
