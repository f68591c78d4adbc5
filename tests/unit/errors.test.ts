// Domain refusals are one type (app/kernel/errors.ts): a status and a Spanish message, answered in
// one way by loaders and actions.
import { isRouteErrorResponse } from "react-router";
import { expect, test } from "vitest";
import { EventEndedError } from "~/events/participation.server";
import { answerRefusal, EventNotFoundError, fieldErrorOf, Refusal } from "~/kernel/errors";
import { CertificateShareError } from "~/attendance/certificate-share.server";
import { DoorWindowError } from "~/attendance/door-window.server";
import { EventEndBeforeStartError } from "~/events/event-commands.server";
import { StaffLinkError } from "~/members/staff-links.server";
import { LastAdminError, NotSignedInError } from "~/members/errors";
import { NotAllowedError } from "~/kernel/permissions";
import { readSource, sourceFilesUnder } from "../helpers/sources";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

test("a refusal's 404 is thrown as the page not found, with what was not found", () => {
  const answer = thrown(() => answerRefusal(new EventNotFoundError()));
  expect(answer).toMatchObject({ init: { status: 404 }, data: "Evento no encontrado." });
});

test("any other refusal is the action's data: its message, its status, and when to retry", () => {
  expect(answerRefusal(new EventEndedError("Este evento ya ha finalizado."))).toMatchObject({
    data: { message: "Este evento ya ha finalizado." },
    init: { status: 409 },
  });
  const busy = answerRefusal(
    new Refusal("Vuelve a intentarlo en unos segundos.", 503, { retryAfter: 5 }),
  );
  expect(busy).toMatchObject({ init: { status: 503, headers: { "Retry-After": "5" } } });
});

test("a refusal about one field says which, and the route places it there without knowing its kind", () => {
  const late = new EventEndBeforeStartError("horaFin");
  expect([late.field, fieldErrorOf(late)]).toEqual(["horaFin", { horaFin: late.message }]);
  expect(fieldErrorOf(new DoorWindowError())).toEqual({ puerta: new DoorWindowError().message });
  expect(fieldErrorOf(new CertificateShareError())).toHaveProperty("porcentaje");
  expect(fieldErrorOf(new StaffLinkError("Ponle un nombre al enlace.", 400, "nombre"))).toEqual({
    nombre: "Ponle un nombre al enlace.",
  });
  // A refusal about no field leaves the form's fields alone.
  expect(fieldErrorOf(new NotAllowedError())).toBeUndefined();
  expect(fieldErrorOf(new StaffLinkError("Enlace no encontrado.", 404))).toBeUndefined();
});

test("anything that is not a refusal is thrown on, whole", () => {
  const failure = new Error("la base de datos no responde");
  expect(thrown(() => answerRefusal(failure))).toBe(failure);
  expect(isRouteErrorResponse(thrown(() => answerRefusal(failure)))).toBe(false);
});

test("the named refusals carry their status and the specification's words", () => {
  expect(new NotAllowedError()).toMatchObject({
    status: 403,
    message: "Acceso denegado. No eres un administrador.",
  });
  expect(new NotSignedInError()).toMatchObject({ status: 401 });
  expect(new LastAdminError()).toMatchObject({
    status: 409,
    message: "No se puede quitar el permiso al último administrador.",
  });
  for (const error of [new NotAllowedError(), new NotSignedInError(), new LastAdminError()])
    expect(error).toBeInstanceOf(Refusal);
});

test("every error class a domain defines is a refusal, and each name is defined once", () => {
  const defined = new Map<string, string[]>();
  const domains = ["members", "events", "attendance", "publications", "site", "mail", "uploads"];
  for (const file of domains.flatMap((domain) => sourceFilesUnder(`app/${domain}`))) {
    for (const match of readSource(file).matchAll(/class (\w+Error) extends (\w+)/g))
      defined.set(match[1]!, [...(defined.get(match[1]!) ?? []), `${file}:${match[2]}`]);
  }
  expect(defined.size).toBeGreaterThan(8);
  const twice = [...defined].filter(([, places]) => places.length > 1);
  expect(twice).toEqual([]);
  // Sign-in's internal error never leaves oidc.server.ts: it becomes the login page's message.
  const notRefusals = [...defined]
    .filter(([name, [place]]) => !place!.endsWith(":Refusal") && name !== "SignInError")
    .map(([name]) => name);
  expect(notRefusals).toEqual([]);
});
