// Every action reads its form through here. A body that is not a form (none at all, JSON, a
// broken multipart boundary) is the client's mistake: a 400 with a Spanish message, before
// anything is read or changed. (A file where text belongs is a field error, left to the schema.)
import { data } from "react-router";
import { KERNEL_MESSAGES } from "~/kernel/messages";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(type)) throw data(KERNEL_MESSAGES.badFormBody, { status: 400 });
  try {
    return await request.formData();
  } catch {
    throw data(KERNEL_MESSAGES.badFormBody, { status: 400 });
  }
}
