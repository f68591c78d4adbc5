// What the judge's three formats share (decision 059): a form of one entry that posts to the page
// without JavaScript and goes to the phone's queue with it, checked here first, and how an entry
// and its state read.
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form } from "react-router";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import {
  EntryProblem,
  parseEntry,
  type EntryFields,
  type EntryIntent,
} from "~/competitions/judging/judge-entry";
import type { ShownRun } from "~/competitions/judging/use-judge-sync";
import { secondsText } from "./results-view";

/** Takes an entry to the phone's queue; null while the forms post to the page. */
export type OnEntry = ((intent: EntryIntent, fields: EntryFields, label: string) => void) | null;

export const STATE_WORDS = {
  standing: "",
  conflict: " (en conflicto: la organización decide)",
  pending: " (por enviar)",
} as const;

export function runText(run: Pick<ShownRun, "timeMs" | "penaltyMs">): string {
  if (run.timeMs === null) return "No terminó";
  return run.penaltyMs > 0
    ? `${secondsText(run.timeMs)} + ${secondsText(run.penaltyMs)} de penalización`
    : secondsText(run.timeMs);
}

/** The form's fields as the entry's, with the button that sent it. */
function fieldsOf(event: FormEvent<HTMLFormElement>): EntryFields {
  const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
  const form = new FormData(event.currentTarget, submitter);
  const fields: EntryFields = {};
  for (const [key, value] of form) {
    if (key !== "intent" && key !== "anotacion" && typeof value === "string") fields[key] = value;
  }
  return fields;
}

/**
 * A form of one entry: without the phone's queue it posts to the page; with it, the entry is
 * checked here first (a mistyped time is said at once) and then queued.
 */
export function EntryForm({
  intent,
  entryId,
  board,
  onEntry,
  label,
  onQueued,
  className,
  oneTap = false,
  seen,
  children,
}: {
  intent: EntryIntent;
  entryId: string;
  board: JudgeBoard;
  onEntry: OnEntry;
  label: (fields: EntryFields) => string;
  onQueued?: (form: HTMLFormElement) => void;
  className?: string;
  /** Taps within half a second count once (a bracket's next round appears under the thumb). */
  oneTap?: boolean;
  /**
   * What the screen showed as standing for what these fields name: null when nothing (an
   * organiser's entry is then not a correction of one they never saw), else how it names it
   * (`visto`: a correction counts only over that one; decision 059).
   */
  seen?: (fields: EntryFields) => string | null;
  children: (error: string | null) => ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  // A second tap within a moment is the same tap (a bracket's next round appears under the thumb).
  const lastTap = useRef(0);
  function submit(event: FormEvent<HTMLFormElement>) {
    if (!onEntry) return;
    event.preventDefault();
    if (oneTap) {
      const now = Date.now();
      if (now - lastTap.current < 500) return;
      lastTap.current = now;
    }
    const fields = fieldsOf(event);
    try {
      parseEntry(intent, fields, board.category);
    } catch (problem) {
      if (problem instanceof EntryProblem) {
        setError(problem.message);
        return;
      }
      throw problem;
    }
    setError(null);
    const shown = seen?.(fields);
    if (shown === null) fields.sinVer = "1";
    else if (shown !== undefined) fields.visto = shown;
    onEntry(intent, fields, label(fields));
    onQueued?.(event.currentTarget);
  }
  return (
    <Form method="post" className={className ?? "judge-form"} onSubmit={submit} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="anotacion" value={entryId} />
      <fieldset disabled={board.category.final} className="judge-fieldset">
        {children(error)}
      </fieldset>
    </Form>
  );
}

export function FieldError({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p className="field-error" role="alert" id={id}>
      {message}
    </p>
  ) : null;
}
