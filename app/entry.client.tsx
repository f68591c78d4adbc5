import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { holdPressedButtons } from "~/kernel/held-buttons";

declare global {
  interface Window {
    /** Left by the loader of app/kernel/defer-hydration.server.ts. */
    __botonesPulsados?: () => HTMLButtonElement[];
  }
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});

// React listens from here on. The buttons pressed before, which only scripts handle, are pressed
// again once the document has hydrated (root.tsx).
holdPressedButtons(window.__botonesPulsados?.() ?? []);
