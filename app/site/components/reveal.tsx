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
    if (element.getBoundingClientRect().top < window.innerHeight) return;
    element.dataset.reveal = "waiting";
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
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
