// @vitest-environment jsdom
// The link-list editor (§4: rows keep their order, never fewer than one) and the YouTube embed
// (a thumbnail until asked, then the privacy-mode player), as a person uses them.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { renderInRoute } from "../helpers/in-route";
import { LinkListEditor } from "~/ui/link-list-editor";
import { YouTubeEmbed } from "~/publications/components/youtube-embed";

afterEach(cleanup);

function rows(): string[] {
  return screen.getAllByRole("textbox").map((input) => (input as HTMLInputElement).value);
}

test("the editor starts with the saved links plus one blank row, and adds rows with '+ Añadir', focusing the new one", () => {
  render(
    <LinkListEditor
      form="f"
      name="enlacesWeb"
      label="Enlace web"
      values={["https://a.example", "https://b.example"]}
    />,
  );
  expect(rows()).toEqual(["https://a.example", "https://b.example", ""]);
  fireEvent.click(screen.getByRole("button", { name: "+ Añadir enlace web" }));
  expect(rows()).toEqual(["https://a.example", "https://b.example", "", ""]);
  expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Enlace web 4" }));
  for (const input of screen.getAllByRole("textbox"))
    expect(input.getAttribute("name")).toBe("enlacesWeb");
});

test("'Quitar' removes that row and keeps the order of the others, while there is more than one row", () => {
  render(
    <LinkListEditor
      form="f"
      name="enlacesWeb"
      label="Enlace web"
      values={["https://a.example", "https://b.example", "https://c.example"]}
    />,
  );
  fireEvent.click(screen.getByRole("button", { name: "Quitar enlace web 2" }));
  expect(rows()).toEqual(["https://a.example", "https://c.example", ""]);
  expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Enlace web 2" }));
  while (screen.queryAllByRole("button", { name: /^Quitar/ }).length > 0)
    fireEvent.click(screen.getAllByRole("button", { name: /^Quitar/ })[0]!);
  expect(rows()).toEqual([""]);
});

test("the event form's list posts its buttons back without script, and keeps no blank row of its own", () => {
  render(
    <LinkListEditor
      form="evento"
      name="enlacesVirtuales"
      label="Enlace"
      values={["https://meet.example/a"]}
      addLabel="+ Añadir otro enlace"
      postBack
    />,
  );
  expect(rows()).toEqual(["https://meet.example/a"]);
  expect(screen.queryByRole("button", { name: /^Quitar/ })).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "+ Añadir otro enlace" }));
  expect(rows()).toEqual(["https://meet.example/a", ""]);
  expect(screen.getByRole("button", { name: "Quitar enlace 2" }).getAttribute("type")).toBe(
    "button",
  );
});

test("an error about the whole list marks the first row, so that focus can find it", () => {
  render(
    <LinkListEditor
      form="evento"
      name="enlacesVirtuales"
      label="Enlace"
      values={[""]}
      error="Un evento virtual o híbrido necesita al menos un enlace del evento."
      postBack
    />,
  );
  const [first] = screen.getAllByRole("textbox");
  expect(first!.getAttribute("aria-invalid")).toBe("true");
  expect(document.getElementById(first!.getAttribute("aria-describedby")!)?.textContent).toBe(
    "Un evento virtual o híbrido necesita al menos un enlace del evento.",
  );
});

test("with an error, only the rows that are not valid links are marked, and the message describes them", () => {
  render(
    <LinkListEditor
      form="f"
      name="enlacesVideos"
      label="Video"
      youtube
      values={["https://youtu.be/dQw4w9WgXcQ", "https://vimeo.com/1"]}
      error="Cada enlace de video debe ser una URL de YouTube (youtube.com o youtu.be)."
    />,
  );
  const [good, bad] = screen.getAllByRole("textbox");
  expect(good!.getAttribute("aria-invalid")).toBeNull();
  expect(bad!.getAttribute("aria-invalid")).toBe("true");
  expect(document.getElementById(bad!.getAttribute("aria-describedby")!)?.textContent).toContain(
    "URL de YouTube",
  );
});

test("the YouTube embed shows a thumbnail link to the video and puts the youtube-nocookie player in its place when clicked", async () => {
  await renderInRoute(
    <YouTubeEmbed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10" title="Clase 1" />,
  );
  const link = screen.getByRole("link", { name: "Reproducir video: Clase 1" });
  expect(link.getAttribute("href")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  expect(document.querySelector("img")?.getAttribute("src")).toBe(
    "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
  );
  expect(document.querySelector("iframe")).toBeNull();
  fireEvent.click(link);
  const frame = screen.getByTitle("Video: Clase 1");
  expect(frame.getAttribute("src")).toBe(
    "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
  );
  expect(screen.queryByRole("link")).toBeNull();
});

test("the YouTube embed renders nothing for a link that is not a YouTube video", async () => {
  await renderInRoute(<YouTubeEmbed url="javascript:alert(1)" title="x" />);
  expect(screen.getByTestId("in-route").innerHTML).toBe("");
});

test("in light mode the YouTube embed is YouTube's smallest thumbnail, a link that stays a link", async () => {
  await renderInRoute(<YouTubeEmbed url="https://youtu.be/dQw4w9WgXcQ" title="Clase 2" />, {
    light: true,
  });
  const image = document.querySelector("img")!;
  expect(image.getAttribute("src")).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg");
  expect([image.getAttribute("width"), image.getAttribute("height")]).toEqual(["320", "180"]);
  const link = screen.getByRole("link", { name: "Reproducir video: Clase 2" });
  fireEvent.click(link);
  expect(document.querySelector("iframe")).toBeNull();
});
