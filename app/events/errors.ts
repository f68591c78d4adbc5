// Refusals of the events domain that other domains (mail) name too: kept apart from the model so
// that naming one does not import the model.
export class EventNotFoundError extends Error {
  override name = "EventNotFoundError";
}
