// The one type of a domain's refusal: what a person reads (Spanish, the specification's words where
// it has them) and the HTTP status that says so. Domains throw it, or a named kind of it; routes
// answer it with `answerRefusal`, or in their own format (a download's plain text, an upload's
// JSON) from the same two fields.
import { data } from "react-router";
import { KERNEL_MESSAGES } from "./messages";
import { notFound } from "./not-found";

export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

export class Refusal extends Error {
  override name = "Refusal";
  /** Seconds after which the same request may succeed (429, 503). */
  readonly retryAfter?: number;
  /**
   * The form field the message is about, when it is about one: a route places the message beside
   * that field (`fieldErrors`) without knowing which kind of refusal it is.
   */
  readonly field?: string;
  constructor(
    message: string,
    readonly status: RefusalStatus,
    options: { retryAfter?: number; field?: string } = {},
  ) {
    super(message);
    this.retryAfter = options.retryAfter;
    this.field = options.field;
  }
}

/** The message of a refusal beside its field, as a form's `fieldErrors`; none when it names none. */
export function fieldErrorOf(error: Refusal): Record<string, string> | undefined {
  return error.field ? { [error.field]: error.message } : undefined;
}

/** The event named is not there: the events domain refuses with it, and so do those that name an event. */
export class EventNotFoundError extends Refusal {
  override name = "EventNotFoundError";
  constructor(message: string = KERNEL_MESSAGES.eventNotFound) {
    super(message, 404);
  }
}

/**
 * A loader's or action's answer to what its domain call threw: a refusal's 404 is the page not
 * found (thrown: the route's error boundary says what), any other its message with its status,
 * returned as the action's data so that the page shows it. Anything else is not a refusal and is
 * thrown on (a 500 the error page shows without details).
 */
export function answerRefusal(error: unknown) {
  if (!(error instanceof Refusal)) throw error;
  if (error.status === 404) notFound(error.message);
  return data(
    { message: error.message },
    {
      status: error.status,
      headers: error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined,
    },
  );
}
