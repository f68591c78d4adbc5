// Refusals of the events domain that other domains (mail) name too: kept apart from the model so
// that naming one does not import the model.
import { Refusal } from "~/kernel/errors";
import { EVENT_MESSAGES } from "./messages";

export class EventNotFoundError extends Refusal {
  override name = "EventNotFoundError";
  constructor(message: string = EVENT_MESSAGES.eventNotFound) {
    super(message, 404);
  }
}
