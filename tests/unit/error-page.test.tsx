// @vitest-environment jsdom
// The one error page: what it says for each kind of answer, and the ways back it offers.
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub, data } from "react-router";
import { afterEach, expect, test, vi } from "vitest";
import { ErrorPage } from "~/error-page";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** What a route's error boundary receives when a loader or action throws `data(...)`. */
function thrown(body: unknown, status: number) {
  const init = data(body, { status }) as unknown as { data: unknown; init: { status: number } };
  return { status, statusText: "", data: init.data, internal: false };
}

async function show(error: unknown, back?: { to: string; label: string }) {
  const Stub = createRoutesStub([
    { path: "/", Component: () => <ErrorPage error={error} back={back} /> },
  ]);
  render(<Stub />);
  return {
    title: (await screen.findByRole("heading", { level: 1 })).textContent,
    links: screen.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")]),
  };
}

const PANEL = { to: "/admin", label: "Volver al panel" };

test("an unknown page is 'Página no encontrada' with a way home", async () => {
  expect(await show(thrown(null, 404))).toEqual({
    title: "Página no encontrada",
    links: [["Volver al inicio", "/inicio"]],
  });
  expect(screen.getByText("La página que buscas no existe o fue movida.")).toBeTruthy();
});

test("a 404 that names what is missing says so, with the route's way back first", async () => {
  expect(await show(thrown("Evento no encontrado.", 404), PANEL)).toEqual({
    title: "Evento no encontrado.",
    links: [
      ["Volver al panel", "/admin"],
      ["Volver al inicio", "/inicio"],
    ],
  });
});

test("a 403 says access is denied and offers only the way home", async () => {
  const page = await show(thrown("Acceso denegado. No eres un administrador.", 403), PANEL);
  expect(page).toEqual({ title: "Acceso denegado", links: [["Volver al inicio", "/inicio"]] });
  expect(screen.getByText("Acceso denegado. No eres un administrador.")).toBeTruthy();
});

test("a 400, 405 or 409 is 'Solicitud no válida' with what the server said", async () => {
  for (const status of [400, 405, 409]) {
    const page = await show(thrown("La solicitud no es un formulario válido.", status), PANEL);
    expect(page.title).toBe("Solicitud no válida");
    expect(screen.getByText("La solicitud no es un formulario válido.")).toBeTruthy();
    expect(screen.getByText(String(status))).toBeTruthy();
    cleanup();
  }
});

test("an unexpected error is 'Algo salió mal' with the server-error text, and is logged", async () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  const page = await show(new Error("connection to pool closed"), PANEL);
  expect(page.title).toBe("Algo salió mal");
  expect(logged).toHaveBeenCalled();
  expect(document.body.textContent).toContain("Ocurrió un error en el servidor.");
});
