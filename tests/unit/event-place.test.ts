import { expect, test } from "vitest";
import { eventLinkLabel, mapSearchUrl } from "~/events/event-place";

test("an event's online link reads with its platform's name, never a lower-case raw URL", () => {
  expect(eventLinkLabel("https://youtube.com/live/robots")).toBe(
    "YouTube · youtube.com/live/robots",
  );
  expect(eventLinkLabel("https://www.youtube.com/watch?v=abc")).toBe(
    "YouTube · youtube.com/watch?v=abc",
  );
  expect(eventLinkLabel("https://meet.jit.si/ayllu-vision")).toBe("meet.jit.si/ayllu-vision");
  expect(eventLinkLabel("http://chat.whatsapp.com/ABC/")).toBe("WhatsApp · chat.whatsapp.com/ABC");
  expect(eventLinkLabel("no es una url")).toBe("no es una url");
});

test("the map link searches OpenStreetMap for a place with a door, and there is none online", () => {
  const place = { ubicacionEvento: "Bolivia, La Paz", ubicacionEspecifica: "Obrajes C2" };
  expect(mapSearchUrl({ ...place, tipoEvento: "Hibrido" })).toBe(
    "https://www.openstreetmap.org/search?query=Obrajes%20C2%2C%20Bolivia%2C%20La%20Paz",
  );
  expect(mapSearchUrl({ ...place, tipoEvento: "Virtual" })).toBeNull();
});
