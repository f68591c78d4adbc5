/**
 * Buttons pressed after the first paint and before React listened (app/kernel/defer-hydration.server.ts).
 * React never saw those presses; they are pressed again once the page has hydrated.
 */
const held: HTMLButtonElement[] = [];

/** Called by entry.client.tsx as soon as React listens: later presses are React's. */
export function holdPressedButtons(buttons: readonly HTMLButtonElement[]): void {
  held.push(...buttons);
}

/** Called once the document has hydrated (root.tsx). */
export function pressHeldButtons(): void {
  for (const button of held.splice(0)) if (button.isConnected) button.click();
}
