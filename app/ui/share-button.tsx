// 'Compartir' on an event's page: the phone's own share sheet (WhatsApp, Telegram, a message…)
// where the browser has one, else the link copied, said in a live region; if even copying is
// refused, the link shown selected, to copy by hand. It needs JavaScript, so the server renders
// it hidden and it appears once the page is interactive (without it, the address bar has the link).
import { useEffect, useRef, useState } from "react";
import { useScriptsRunning } from "~/kernel/use-scripts-running";

type Outcome = "idle" | "copied" | "manual";

export function ShareButton({ title, url }: { title: string; url: string }) {
  const ready = useScriptsRunning();
  const [outcome, setOutcome] = useState<Outcome>("idle");
  const manual = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (outcome === "manual") manual.current?.select();
  }, [outcome]);

  async function share() {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // Closing the sheet is a choice, not a failure.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setOutcome("copied");
    } catch {
      setOutcome("manual");
    }
  }

  return (
    <div className="share" hidden={!ready}>
      <button type="button" className="button button-secondary" onClick={share}>
        Compartir
      </button>
      <p className="share-status" role="status">
        {outcome === "copied" ? "Enlace copiado. Pégalo donde quieras compartirlo." : null}
      </p>
      {outcome === "manual" ? (
        <label className="field share-manual">
          <span>Copia este enlace para compartir el evento</span>
          <input ref={manual} type="url" readOnly value={url} />
        </label>
      ) : null}
    </div>
  );
}
