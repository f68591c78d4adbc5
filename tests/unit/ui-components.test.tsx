// @vitest-environment jsdom
// The shared UI pieces of the design system (decision 014): outside calls to action decided from
// the data, the item picture and its branded placeholder, times that never break, zone labels.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, expect, test } from "vitest";
import { renderInRoute } from "../helpers/in-route";
import { ExternalAction } from "~/site/components/external-action";
import { ItemCard, ItemImage } from "~/ui/item-card";
import { SiteFooter } from "~/site/components/site-footer";
import { site } from "~/site/copy/site";
import { formatDateTime, timeZoneLabel } from "~/kernel/time";
import { EventCard } from "~/events/components/event-card";
import { tipoEventoLabel } from "~/kernel/limits";

afterEach(cleanup);

test("an outside call to action with an address is a link that opens in a new tab", () => {
  render(
    <ExternalAction href="https://forms.example.org/curso" label="Formulario de Inscripción" />,
  );
  const link = screen.getByRole("link", { name: /^Formulario de Inscripción/ });
  expect(link.getAttribute("href")).toBe("https://forms.example.org/curso");
  expect(link.getAttribute("target")).toBe("_blank");
});

test("a call to action to a page of this site is a plain link in the same tab", () => {
  const Stub = createRoutesStub([
    { path: "/", Component: () => <ExternalAction href="/clase1" label="Ver el curso" /> },
  ]);
  render(<Stub initialEntries={["/"]} />);
  const link = screen.getByRole("link", { name: "Ver el curso" });
  expect(link.getAttribute("href")).toBe("/clase1");
  expect(link.getAttribute("target")).toBeNull();
});

test("a call to action the community has not set, or not to a safe address, is not shown", () => {
  for (const href of [null, undefined, "", "javascript:alert(1)", "//evil.example", "/\\evil"]) {
    const { container, unmount } = render(<ExternalAction href={href} label="Tienda" />);
    expect(container.innerHTML).toBe("");
    unmount();
  }
});

test("the footer lists the social pages it is given, and nothing when there are none", async () => {
  const { unmount } = await renderInRoute(<SiteFooter year={2026} social={[]} />);
  expect(screen.queryAllByRole("link")).toHaveLength(0);
  expect(screen.getByText(new RegExp(`© 2026 ${site.name}`))).toBeTruthy();
  unmount();
  await renderInRoute(
    <SiteFooter year={2026} social={[{ label: "GitHub", href: "https://github.com/ayllu" }]} />,
  );
  expect(screen.getByRole("link", { name: /^GitHub/ }).getAttribute("href")).toBe(
    "https://github.com/ayllu",
  );
});

test("an item without a picture shows the branded placeholder with its kind, not a letter", async () => {
  const { container } = await renderInRoute(
    <ItemImage src={null} label="Nota" className="item-card-media" />,
  );
  const placeholder = container.querySelector(".image-placeholder");
  expect(placeholder?.textContent).toBe("Nota");
  expect(placeholder?.getAttribute("aria-hidden")).toBe("true");
  expect(placeholder?.querySelector("img")?.getAttribute("src")).toBe("/logo.svg");
});

test("an address the safe-image check refuses shows the placeholder, never the address", async () => {
  for (const src of ["javascript:alert(1)", "//evil.example/a.png", "/\\evil.example/a.png"]) {
    const { container, unmount } = await renderInRoute(<ItemImage src={src} label="Evento" />);
    expect(container.querySelector(".image-placeholder")).not.toBeNull();
    expect(container.innerHTML).not.toContain("evil.example");
    unmount();
  }
});

test("a card's picture loads when scrolled to; a page's main picture at once and first", async () => {
  const { unmount } = await renderInRoute(
    <ItemImage src="/demo/a.svg" label="Evento" alt="Tarjeta" />,
  );
  expect(screen.getByRole("img", { name: "Tarjeta" }).getAttribute("loading")).toBe("lazy");
  expect(screen.getByRole("img", { name: "Tarjeta" }).getAttribute("fetchpriority")).toBeNull();
  unmount();
  await renderInRoute(<ItemImage src="/demo/a.svg" label="Evento" alt="Principal" main />);
  expect(screen.getByRole("img", { name: "Principal" }).getAttribute("loading")).toBe("eager");
  expect(screen.getByRole("img", { name: "Principal" }).getAttribute("fetchpriority")).toBe("high");
});

test("a picture that fails to load is replaced by the placeholder, which keeps the alt text", async () => {
  const { container } = await renderInRoute(
    <ItemImage src="https://img.example.org/roto.png" label="Evento" alt="Imagen del evento X" />,
  );
  const image = screen.getByRole("img", { name: "Imagen del evento X" });
  expect(image.tagName).toBe("IMG");
  fireEvent.error(image);
  const placeholder = screen.getByRole("img", { name: "Imagen del evento X" });
  expect(placeholder.tagName).toBe("DIV");
  expect(container.querySelector('img[src="https://img.example.org/roto.png"]')).toBeNull();
});

test("an item card links its title to the item's page and shows its meta, badges and summary", () => {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <ul>
          <ItemCard
            to="/notas/1"
            title="Taller"
            image={null}
            imageLabel="Nota"
            meta="5 de diciembre"
            badges={["Virtual", "Finalizado"]}
            text="Resumen"
          />
        </ul>
      ),
    },
  ]);
  render(<Stub />);
  expect(screen.getByRole("link", { name: "Taller" }).getAttribute("href")).toBe("/notas/1");
  expect(screen.getByRole("heading", { name: "Taller", level: 3 })).toBeTruthy();
  expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toContain("Virtual");
  expect(screen.getByText("Resumen")).toBeTruthy();
});

test("a time keeps '7:00 p. m.' together with no-break spaces", () => {
  const text = formatDateTime("2025-12-06T23:00:00Z", "America/La_Paz");
  expect(text).toContain("7:00\u00a0p.\u00a0m.");
  expect(text).not.toMatch(/\d p\. m\./);
});

test("a time zone is named for people, never by its id", () => {
  expect(timeZoneLabel("America/La_Paz")).toBe("hora de Bolivia");
  expect(timeZoneLabel("UTC")).not.toContain("UTC/");
  expect(timeZoneLabel("Etc/GMT+5")).not.toContain("Etc/");
});

test("an event's type reads 'Híbrido' on its card, though it is stored as the specification's 'Hibrido'", () => {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <EventCard
          event={{
            id: "00000000-0000-4000-8000-000000000001",
            nombreEvento: "Charla mixta",
            ubicacionEvento: "Bolivia, La Paz",
            tipoEvento: "Hibrido",
            imagenEnlace: null,
            startsAt: "2026-12-01T23:00:00.000Z",
            going: 0,
            capacity: null,
          }}
          timeZone="America/La_Paz"
          state="upcoming"
        />
      ),
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  expect(screen.getByText("Híbrido")).toBeTruthy();
  expect(screen.queryByText("Hibrido")).toBeNull();
  expect(tipoEventoLabel("Presencial")).toBe("Presencial");
});

test("an event's card says how many go and, with a capacity, the seats left", () => {
  const card = (going: number, capacity: number | null, state: "upcoming" | "ended") => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <EventCard
            event={{
              id: "00000000-0000-4000-8000-000000000002",
              nombreEvento: "Taller con cupo",
              ubicacionEvento: "Bolivia, La Paz",
              tipoEvento: "Presencial",
              imagenEnlace: null,
              startsAt: "2026-12-01T23:00:00.000Z",
              going,
              capacity,
            }}
            timeZone="America/La_Paz"
            state={state}
          />
        ),
      },
    ]);
    const { container, unmount } = render(<Stub initialEntries={["/"]} />);
    const text = container.textContent ?? "";
    unmount();
    return text;
  };
  expect(card(3, 10, "upcoming")).toContain("3 personas van");
  expect(card(3, 10, "upcoming")).toContain("Quedan 7 plazas");
  expect(card(10, 10, "upcoming")).toContain("Cupo completo");
  expect(card(1, null, "upcoming")).toContain("1 persona va");
  expect(card(1, null, "upcoming")).not.toContain("plaza");
  expect(card(0, null, "upcoming")).not.toMatch(/van|va\b/);
  expect(card(4, 10, "ended")).toContain("4 personas fueron");
  expect(card(4, 10, "ended")).not.toContain("Quedan");
});

test("in light mode an uploaded picture is its smallest stored width, with no srcset", async () => {
  const upload = `/imagenes/${"a".repeat(32)}-1280.webp`;
  const { unmount } = await renderInRoute(<ItemImage src={upload} label="Evento" alt="Foto" />);
  expect(screen.getByRole("img", { name: "Foto" }).getAttribute("srcset")).toContain("640w");
  unmount();
  await renderInRoute(<ItemImage src={upload} label="Evento" alt="Foto" />, { light: true });
  const light = screen.getByRole("img", { name: "Foto" });
  expect(light.getAttribute("src")).toBe(`/imagenes/${"a".repeat(32)}-320.webp`);
  expect(light.getAttribute("srcset")).toBeNull();
});
