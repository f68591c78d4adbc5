import { useEffect, useRef, type ReactNode } from "react";

/**
 * Fades its content in the first time it scrolls into view. The server renders it visible; only
 * content still below the fold when the page becomes interactive is hidden and revealed, so
 * nothing flashes, nothing shifts, and without JavaScript or under prefers-reduced-motion
 * everything simply shows.
 */
export function Reveal({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !("IntersectionObserver" in window)) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    // The observer's first report says where the element is, without making the browser lay the
    // page out again here, once per section, while it hydrates.
    let first = true;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (!entry) return;
        if (first) {
          first = false;
          const below = entry.boundingClientRect.top >= window.innerHeight;
          if (entry.isIntersecting || !below) {
            observer.disconnect();
            return;
          }
          element.dataset.reveal = "waiting";
          return;
        }
        if (!entry.isIntersecting) return;
        element.dataset.reveal = "shown";
        observer.disconnect();
      },
      { rootMargin: "0px 0px -8% 0px" },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (element.dataset.reveal === "waiting") delete element.dataset.reveal;
    };
  }, []);
  return (
    <div ref={ref} className={className ? `reveal ${className}` : "reveal"}>
      {children}
    </div>
  );
}
