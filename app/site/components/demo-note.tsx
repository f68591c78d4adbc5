import type { ReactNode } from "react";
import { demoNotes } from "~/site/copy/demo-notes";

/**
 * The mark beside demo content (SEED_DEMO, docs/decisions/042-demo-sections.md): a 'Demo' badge
 * and a sentence saying what is only an example. The sentence says it to screen readers; the
 * badge is for the eye.
 */
export function DemoNote({ children }: { children: ReactNode }) {
  return (
    <p className="demo-note">
      <span className="demo-badge" aria-hidden="true">
        {demoNotes.badge}
      </span>{" "}
      {children}
    </p>
  );
}
