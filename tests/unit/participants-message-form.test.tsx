// @vitest-environment jsdom
// 'Enviar mensaje a los participantes': once a message is queued, the form is empty again, so a
// second click cannot send the same message twice; a refused one keeps what was typed.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRoutesStub, redirect, useActionData, useLoaderData } from "react-router";
import { afterEach, expect, test } from "vitest";
import { ParticipantsMessageForm } from "~/mail/components/participants-message-form";

afterEach(cleanup);

function Page() {
  const { sent } = useLoaderData<{ sent: { queued: number; optedOut: number } | null }>();
  const result = useActionData<{
    fieldErrors: Record<string, string>;
    formError: null;
    values: Record<string, unknown>;
  }>();
  return (
    <ParticipantsMessageForm
      participants={1}
      waiting={0}
      sent={sent}
      result={result}
      busy={false}
    />
  );
}

function stub() {
  return createRoutesStub([
    {
      path: "/participantes",
      Component: Page,
      loader: ({ request }) => ({
        sent: new URL(request.url).searchParams.has("enviado") ? { queued: 1, optedOut: 0 } : null,
      }),
      action: async ({ request }) => {
        const form = await request.formData();
        if (String(form.get("mensaje")).trim() === "")
          return {
            fieldErrors: { mensaje: "Escribe el mensaje." },
            formError: null,
            values: Object.fromEntries(form),
          };
        return redirect("/participantes?enviado=1&sinCorreo=0");
      },
    },
  ]);
}

test("a queued message empties the form; sending again needs a new message", async () => {
  const Stub = stub();
  render(<Stub initialEntries={["/participantes?enviado=1&sinCorreo=0"]} />);
  const subject = await screen.findByLabelText(/^Asunto/);
  const text = screen.getByLabelText(/^Mensaje/);
  fireEvent.change(subject, { target: { value: "Cambio de aula" } });
  fireEvent.change(text, { target: { value: "Nos vemos en el aula 3." } });
  fireEvent.click(screen.getByRole("button", { name: "Enviar mensaje" }));
  await waitFor(() =>
    expect((screen.getByLabelText(/^Asunto/) as HTMLInputElement).value).toBe(""),
  );
  expect((screen.getByLabelText(/^Mensaje/) as HTMLTextAreaElement).value).toBe("");
  expect(screen.getByRole("status").textContent).toContain("Mensaje en cola para 1 persona.");
});

test("a refused message keeps what was typed", async () => {
  const Stub = stub();
  render(<Stub initialEntries={["/participantes"]} />);
  const subject = await screen.findByLabelText(/^Asunto/);
  fireEvent.change(subject, { target: { value: "Cambio de aula" } });
  fireEvent.click(screen.getByRole("button", { name: "Enviar mensaje" }));
  await screen.findByText("Escribe el mensaje.");
  expect((screen.getByLabelText(/^Asunto/) as HTMLInputElement).value).toBe("Cambio de aula");
});
