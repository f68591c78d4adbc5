import { useId, useState, type KeyboardEvent, type ReactNode } from "react";
import { useWithoutScripts } from "~/ui/light";

interface CarouselSlide {
  key: string;
  label: string;
  content: ReactNode;
}

/**
 * A carousel that never moves by itself (§2 /clase1): previous/next buttons, one button per
 * slide, and the arrow keys (plus Home/End) while focus is inside it. Slides not shown are
 * hidden from everyone, so keyboard and screen-reader users meet only the current one.
 */
export function Carousel({
  slides,
  label,
  className,
  heading,
}: {
  slides: CarouselSlide[];
  label: string;
  className?: string;
  /** Stays in place while the slides change (the page's heading, say). */
  heading?: ReactNode;
}) {
  const [index, setIndex] = useState(0);
  const id = useId();
  const count = slides.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);

  const withoutScripts = useWithoutScripts();
  // Without scripts (light mode, decision 049) every slide shows, one after the other.
  if (withoutScripts) {
    return (
      <section
        className={
          className ? `carousel carousel-stacked ${className}` : "carousel carousel-stacked"
        }
        aria-label={label}
      >
        {heading ? <div className="carousel-heading">{heading}</div> : null}
        {slides.map((slide) => (
          <div key={slide.key} className="carousel-slide" role="group" aria-label={slide.label}>
            {slide.content}
          </div>
        ))}
      </section>
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select")) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(count - 1),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    // The carousel takes arrow, Home and End keys anywhere inside it (the carousel pattern).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      className={className ? `carousel ${className}` : "carousel"}
      aria-roledescription="carrusel"
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      {heading ? <div className="carousel-heading">{heading}</div> : null}
      <div className="carousel-slides" aria-live="polite">
        {slides.map((slide, i) => (
          <div
            key={slide.key}
            id={`${id}-slide-${i}`}
            className="carousel-slide"
            role="group"
            aria-roledescription="diapositiva"
            aria-label={`${i + 1} de ${count}: ${slide.label}`}
            hidden={i !== index}
          >
            {slide.content}
          </div>
        ))}
      </div>
      {count > 1 ? (
        <div className="carousel-controls">
          <button
            type="button"
            className="carousel-arrow"
            onClick={() => go(index - 1)}
            aria-controls={`${id}-slide-${index}`}
          >
            <span aria-hidden="true">‹</span>
            <span className="visually-hidden">Diapositiva anterior</span>
          </button>
          <div className="carousel-dots">
            {slides.map((slide, i) => (
              <button
                key={slide.key}
                type="button"
                className="carousel-dot"
                aria-label={`Ir a la diapositiva ${i + 1}: ${slide.label}`}
                aria-current={i === index ? "true" : undefined}
                aria-controls={`${id}-slide-${i}`}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button
            type="button"
            className="carousel-arrow"
            onClick={() => go(index + 1)}
            aria-controls={`${id}-slide-${index}`}
          >
            <span aria-hidden="true">›</span>
            <span className="visually-hidden">Diapositiva siguiente</span>
          </button>
        </div>
      ) : null}
    </section>
  );
}
