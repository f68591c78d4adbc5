import { useEffect, useState } from "react";

/**
 * False in the server's HTML and until the page's script has run, true after: for controls that
 * only work with the script (the server's HTML, and a page without JavaScript, show what works
 * without it).
 */
export function useScriptsRunning(): boolean {
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return running;
}
