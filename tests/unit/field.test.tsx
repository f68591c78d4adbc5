// @vitest-environment jsdom
// The one form field: a label that names the control, a hint, and the server's error next to it,
// tied to the control so that a screen reader reads them and focus can find the field.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { Field } from "~/ui/field";

afterEach(cleanup);

test("the label names the control, and a required field carries the mark and the attribute", () => {
  render(
    <Field id="f-titulo" name="titulo" label="Título" required>
      {(control) => <input {...control} type="text" />}
    </Field>,
  );
  const input = screen.getByRole("textbox", { name: "Título" });
  expect(input.getAttribute("name")).toBe("titulo");
  expect(input.hasAttribute("required")).toBe(true);
  expect(input.getAttribute("aria-invalid")).toBeNull();
  expect(input.getAttribute("aria-describedby")).toBeNull();
  expect(document.querySelector("label")?.textContent).toBe("Título *");
});

test("an optional field has neither the mark nor the attribute", () => {
  render(
    <Field id="f-sub" name="subtitulos" label="Subtítulos (opcional)">
      {(control) => <input {...control} type="text" />}
    </Field>,
  );
  const input = screen.getByRole("textbox", { name: "Subtítulos (opcional)" });
  expect(input.hasAttribute("required")).toBe(false);
  expect(document.querySelector("label")?.textContent).toBe("Subtítulos (opcional)");
});

test("a hint describes the control", () => {
  render(
    <Field id="f-hab" name="habilidades" label="Habilidades" hint="Máximo 30 caracteres.">
      {(control) => <input {...control} type="text" />}
    </Field>,
  );
  const input = screen.getByRole("textbox", { name: "Habilidades" });
  const ids = input.getAttribute("aria-describedby")!.split(" ");
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual([
    "Máximo 30 caracteres.",
  ]);
});

test("the server's error marks the control invalid and describes it, before the hint", () => {
  render(
    <Field
      id="f-hab"
      name="habilidades"
      label="Habilidades"
      hint="Máximo 30 caracteres."
      error="Las habilidades pueden tener como máximo 30 caracteres."
    >
      {(control) => <input {...control} type="text" />}
    </Field>,
  );
  const input = screen.getByRole("textbox", { name: "Habilidades" });
  expect(input.getAttribute("aria-invalid")).toBe("true");
  const ids = input.getAttribute("aria-describedby")!.split(" ");
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual([
    "Las habilidades pueden tener como máximo 30 caracteres.",
    "Máximo 30 caracteres.",
  ]);
  expect(document.getElementById("f-hab-error")?.className).toBe("field-error");
});

test("the control may be a select or a textarea", () => {
  render(
    <>
      <Field id="f-genero" name="genero" label="Género" error="Selecciona un género de la lista.">
        {(control) => (
          <select {...control} defaultValue="">
            <option value="">Selecciona...</option>
          </select>
        )}
      </Field>
      <Field id="f-texto" name="texto" label="Texto" required>
        {(control) => <textarea {...control} rows={5} />}
      </Field>
    </>,
  );
  expect(screen.getByRole("combobox", { name: "Género" }).getAttribute("aria-invalid")).toBe(
    "true",
  );
  expect(screen.getByRole("textbox", { name: "Texto" }).getAttribute("rows")).toBe("5");
});
