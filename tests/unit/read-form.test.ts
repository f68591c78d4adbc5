// Where every form is read (decision 063): bodies that are not forms and control characters in any
// field are refused before an action sees them; tab, line feed and carriage return are text.
import { expect, test } from "vitest";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { readForm } from "~/kernel/read-form.server";

const post = (body: URLSearchParams | FormData) =>
  new Request("http://ayllu.test/x", { method: "POST", body });

async function refusal(body: URLSearchParams | FormData): Promise<unknown> {
  try {
    await readForm(post(body));
    return null;
  } catch (error) {
    // An action's thrown `data(message, { status })`, as the route's error boundary receives it.
    const thrown = error as { data?: unknown; init?: { status?: number } | null };
    return { status: thrown.init?.status, data: thrown.data };
  }
}

const REFUSED = { status: 400, data: KERNEL_MESSAGES.controlCharacter };

test("every C0 control but tab, line feed and carriage return, and DEL, is refused in any field", async () => {
  for (let code = 0; code < 32; code++) {
    const char = String.fromCharCode(code);
    const expected = char === "\t" || char === "\n" || char === "\r" ? null : REFUSED;
    const label = `U+${code.toString(16)}`;
    expect(await refusal(new URLSearchParams({ nombre: `a${char}b` })), label).toEqual(expected);
  }
  expect(await refusal(new URLSearchParams({ nombre: "a\u007fb" }))).toEqual(REFUSED);
});

test("a control character in a field's name, in a multipart form, or in the second of two values is refused", async () => {
  expect(await refusal(new URLSearchParams([["no\u0000mbre", "Ana"]]))).toEqual(REFUSED);
  const multipart = new FormData();
  multipart.append("intent", "guardar");
  multipart.append("notas", "mal\u001b[31m");
  expect(await refusal(multipart)).toEqual(REFUSED);
  const twice = new URLSearchParams([
    ["etiqueta", "bien"],
    ["etiqueta", "mal\u0000"],
  ]);
  expect(await refusal(twice)).toEqual(REFUSED);
});

test("ordinary text passes as sent: accents, emoji, line breaks and tabs", async () => {
  const text = "Ñandú 🤖\r\nlínea\tdos";
  const form = await readForm(post(new URLSearchParams({ notas: text })));
  expect(form.get("notas")).toBe(text);
});

test("a file's bytes are not text: a file part with control characters in it passes to the upload's own checks", async () => {
  const multipart = new FormData();
  multipart.append("comprobante", new Blob([new Uint8Array([0, 1, 2, 27, 127])]), "recibo.pdf");
  const form = await readForm(post(multipart));
  expect(form.get("comprobante")).toBeInstanceOf(File);
});

test("a file's name is text: a control character in it is refused", async () => {
  const multipart = new FormData();
  multipart.append("comprobante", new Blob([new Uint8Array([1])]), "reci\u0000bo.pdf");
  expect(await refusal(multipart)).toEqual(REFUSED);
});
