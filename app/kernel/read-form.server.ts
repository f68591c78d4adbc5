// Every action reads its form through here. A body that is not a form (none at all, JSON, a
// broken multipart boundary) is the client's mistake: a 400 with a Spanish message, before
// anything is read or changed. (A file where text belongs is a field error, left to the schema.)
// A control character in any field's name or text is refused here too, for every form at once
// (decision 063): no form can forget it, and none reaches the database with a NUL.
import { data } from "react-router";
import { CONTROL_CHARACTERS } from "~/kernel/checks";
import { BODY_MAX } from "~/kernel/limits";
import { KERNEL_MESSAGES } from "~/kernel/messages";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * The longest text value any form field may carry: twice the longest field's own limit
 * (BODY_MAX), so each field's schema still says its own limit for what a person could type, and a
 * megabyte sent into a field is refused here, whole, before any page could show it again.
 */
export const FORM_VALUE_MAX = 2 * BODY_MAX;

/** Refuses a form with a text value longer than FORM_VALUE_MAX: a 413, nothing of it echoed. */
function assertValuesFit(form: FormData): void {
  for (const [, value] of form) {
    if (typeof value === "string" && value.length > FORM_VALUE_MAX)
      throw data(KERNEL_MESSAGES.valueTooLong, { status: 413 });
  }
}

export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(type)) throw data(KERNEL_MESSAGES.badFormBody, { status: 400 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(KERNEL_MESSAGES.badFormBody, { status: 400 });
  }
  assertValuesFit(form);
  for (const [name, value] of form) {
    // A file's bytes are its own checks' business; its name is text.
    const text = typeof value === "string" ? value : value.name;
    if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(text))
      throw data(KERNEL_MESSAGES.controlCharacter, { status: 400 });
  }
  return form;
}
