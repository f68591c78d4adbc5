// Check-in at the door for one event: the admin scans a participant's QR code (or types their
// code), sees their name and photo, and they are marked present. It works without a connection:
// the page is kept by a service worker (public/registro-sw.js), the participant list and the
// check-ins not yet sent by IndexedDB (app/attendance/check-in-store.ts); they are sent when the
// connection returns, and the server keeps the first time. Admins only. Without JavaScript, the
// typed code is posted to this page's action. See docs/decisions/019-check-in.md.
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { data, Link } from "react-router";
import { Avatar } from "~/ui/avatar";
import { ErrorPage } from "~/error-page";
import { Field } from "~/ui/field";
import { EmptyState } from "~/ui/item-card";
import { QrScanner } from "~/attendance/components/qr-scanner";
import { eventIdOfToken, normalizeCheckInCode } from "~/attendance/check-in";
import {
  forgetCheckIn,
  loadList,
  pendingCheckIns,
  queueCheckIn,
  saveList,
} from "~/attendance/check-in-store";
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { formatDateTime, zonedDateTime } from "~/kernel/time";
import { requireAdmin } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { listCheckIn } from "~/attendance/check-in.server";
import {
  checkInFromForm,
  checkInPayload,
  type CheckInPayload,
  type CheckInReply,
} from "./check-in.server";
import type { Route } from "./+types/check-in";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const list = await listCheckIn(context.db, context.config.sessionSecret, admin, params.eventId);
  if (!list) notFound(MESSAGES.eventNotFound);
  return data(
    { ...checkInPayload(list, context.now()), timeZone: context.config.siteTimezone },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A typed code sent without JavaScript (the page's script sends to …/registro/datos instead). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  if (form.get("intent") !== "checkIn") {
    return data({ ok: false, message: MESSAGES.unknownAction } as CheckInReply, { status: 400 });
  }
  const { status, reply } = await checkInFromForm(form, context, admin, params.eventId);
  return data(reply, { status });
}

export function meta({ loaderData, params }: Route.MetaArgs) {
  return [
    {
      tagName: "link",
      rel: "manifest",
      href: `/admin/eventos/${params.eventId}/registro.webmanifest`,
    },
    { tagName: "link", rel: "apple-touch-icon", href: "/icons/registro-192.png" },
    {
      title: loaderData ? `Registro: ${loaderData.event.nombreEvento} — Ayllu` : "Registro — Ayllu",
    },
    { name: "robots", content: "noindex" },
    { name: "theme-color", content: "#0b1020" },
  ];
}

type Person = CheckInPayload["participants"][number];

/** What the admin sees after a scan or a typed code. */
type Outcome =
  | { kind: "in" | "already"; person: Person; note?: string }
  | { kind: "refused"; message: string; person?: Person; typed?: boolean };

const RESULT_CLASS = {
  in: "admin-checkin-result-in",
  already: "admin-checkin-result-already",
  refused: "admin-checkin-result-refused",
} as const;

/** A name without accents or case, so that "maria" finds "María". */
function folded(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

function timeOf(instant: string, timeZone: string): string {
  return zonedDateTime(instant, timeZone).time;
}

function replyToOutcome(reply: CheckInReply, people: Person[], typed: boolean): Outcome {
  if (!reply.ok) return { kind: "refused", message: reply.message, typed };
  const known = people.find((p) => p.userId === reply.userId);
  const person: Person = {
    ...(known ?? { userId: reply.userId, token: "", code: "" }),
    nombre: reply.nombre,
    photoURL: reply.photoURL,
    checkedInAt: reply.checkedInAt,
    checkedInBy: reply.checkedInBy,
  };
  return { kind: reply.outcome === "checkedIn" ? "in" : "already", person };
}

export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { event, timeZone } = loaderData;
  const [people, setPeople] = useState<Person[]>(loaderData.participants);
  const [outcome, setOutcome] = useState<Outcome | null>(
    actionData ? replyToOutcome(actionData, loaderData.participants, true) : null,
  );
  const [online, setOnline] = useState(true);
  const [pending, setPending] = useState(0);
  // Until the script runs (and without JavaScript) the form posts to the server.
  const [local, setLocal] = useState(false);
  const [code, setCode] = useState("");
  const [search, setSearch] = useState("");
  const [sessionEnded, setSessionEnded] = useState(false);
  const peopleRef = useRef(people);
  peopleRef.current = people;
  const sending = useRef(false);
  const dataUrl = `/admin/eventos/${event.id}/registro/datos`;

  /** Puts the queued check-ins over a list from the server: what this phone knows counts too. */
  const withPending = useCallback(
    async (list: Person[]) => {
      const queued = await pendingCheckIns(event.id);
      setPending(queued.length);
      const byUser = new Map(queued.map((q) => [q.userId, q.at]));
      return list.map((p) =>
        !p.checkedInAt && byUser.has(p.userId) ? { ...p, checkedInAt: byUser.get(p.userId)! } : p,
      );
    },
    [event.id],
  );

  const refresh = useCallback(async () => {
    try {
      const response = await fetch(dataUrl, { redirect: "manual", cache: "no-store" });
      if (response.type === "opaqueredirect" || response.status === 401) {
        setSessionEnded(true);
        return;
      }
      if (!response.ok) return;
      const fresh = (await response.json()) as CheckInPayload;
      await saveList(fresh);
      setPeople(await withPending(fresh.participants));
      setOnline(true);
    } catch {
      setOnline(false);
    }
  }, [dataUrl, withPending]);

  /** Sends the queued check-ins, oldest first; stops at the first that cannot be sent. */
  const send = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      for (const item of await pendingCheckIns(event.id)) {
        let response: Response;
        try {
          response = await fetch(dataUrl, {
            method: "POST",
            body: new URLSearchParams({ token: item.token, marcadoEn: item.at }),
            redirect: "manual",
          });
        } catch {
          setOnline(false);
          return;
        }
        if (response.type === "opaqueredirect" || response.status === 401) {
          setSessionEnded(true);
          return;
        }
        if (response.status >= 500) return;
        setOnline(true);
        const reply = (await response.json().catch(() => null)) as CheckInReply | null;
        await forgetCheckIn(event.id, item.userId);
        if (reply?.ok) {
          setPeople((list) =>
            list.map((p) =>
              p.userId === reply.userId
                ? { ...p, checkedInAt: reply.checkedInAt, checkedInBy: reply.checkedInBy }
                : p,
            ),
          );
        } else {
          // Refused (the person left the event, say): this phone's mark is undone and said why.
          const person = peopleRef.current.find((p) => p.userId === item.userId);
          setPeople((list) =>
            list.map((p) => (p.userId === item.userId ? { ...p, checkedInAt: null } : p)),
          );
          setOutcome({
            kind: "refused",
            person,
            message: reply && !reply.ok ? reply.message : MESSAGES.participationFailed,
          });
        }
      }
    } finally {
      setPending((await pendingCheckIns(event.id)).length);
      sending.current = false;
    }
  }, [dataUrl, event.id]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // A copy of the page kept for offline use may be older than the list this phone saved.
      const saved = await loadList<CheckInPayload>(event.id).catch(() => undefined);
      const newer = saved !== undefined && saved.generatedAt > loaderData.generatedAt;
      const base = newer ? saved : checkInCopy(loaderData);
      if (!newer) await saveList(base);
      const list = await withPending(base.participants);
      if (cancelled) return;
      setPeople(list);
      setOnline(navigator.onLine);
      setLocal(true);
      if (navigator.onLine) await send();
    })().catch(() => setLocal(false));
    return () => {
      cancelled = true;
    };
  }, [event.id, loaderData, send, withPending]);

  useEffect(() => {
    const wentOnline = () => {
      setOnline(true);
      void send().then(refresh);
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    // Other phones check people in too: the counts follow them while there is a connection.
    const every = window.setInterval(() => {
      if (navigator.onLine && document.visibilityState === "visible") void send().then(refresh);
    }, 20_000);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      window.clearInterval(every);
    };
  }, [send, refresh]);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register("/registro-sw.js", { scope: "/admin/eventos/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const files = performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(location.origin));
        registration.active?.postMessage({ type: "guardar", urls: [location.href, ...files] });
      })
      .catch(() => {
        // Without a service worker the page still works while it stays open.
      });
  }, []);

  /** Marks a recognised person present here, queues it and sends it when it can. */
  async function markPresent(person: Person) {
    if (person.checkedInAt) {
      setOutcome({ kind: "already", person });
      return;
    }
    const at = new Date().toISOString();
    await queueCheckIn({ eventId: event.id, userId: person.userId, token: person.token, at });
    const marked = { ...person, checkedInAt: at, checkedInBy: null };
    setPeople((list) => list.map((p) => (p.userId === person.userId ? marked : p)));
    setOutcome({ kind: "in", person: marked });
    setPending((n) => n + 1);
    if (navigator.onLine) void send();
  }

  /** Someone this phone does not know (they joined since the list was kept): the server decides. */
  async function askServer(field: "token" | "codigo", value: string, fallback: string) {
    const typed = field === "codigo";
    if (!navigator.onLine) {
      setOutcome({ kind: "refused", message: fallback, typed });
      return;
    }
    try {
      const response = await fetch(dataUrl, {
        method: "POST",
        body: new URLSearchParams({ [field]: value }),
        redirect: "manual",
      });
      if (response.type === "opaqueredirect") return setSessionEnded(true);
      const reply = (await response.json()) as CheckInReply;
      setOutcome(replyToOutcome(reply, peopleRef.current, typed));
      if (reply.ok) void refresh();
    } catch {
      setOnline(false);
      setOutcome({ kind: "refused", message: fallback, typed });
    }
  }

  function scanned(value: string) {
    const token = value.trim();
    const person = peopleRef.current.find((p) => p.token === token);
    if (person) return void markPresent(person);
    const otherEvent = eventIdOfToken(token);
    if (otherEvent === null)
      return setOutcome({ kind: "refused", message: MESSAGES.checkInTokenInvalid });
    if (otherEvent !== event.id)
      return setOutcome({ kind: "refused", message: MESSAGES.checkInTokenOtherEvent });
    void askServer("token", token, MESSAGES.checkInTokenInvalid);
  }

  function typed(submit: FormEvent<HTMLFormElement>) {
    if (!local) return;
    submit.preventDefault();
    const normalized = normalizeCheckInCode(code);
    if (!normalized) {
      setOutcome({ kind: "refused", message: MESSAGES.checkInCodeMalformed, typed: true });
      return;
    }
    setCode("");
    const person = peopleRef.current.find((p) => p.code === normalized);
    if (person) void markPresent(person);
    else void askServer("codigo", normalized, MESSAGES.checkInCodeUnknown);
  }

  const present = people.filter((p) => p.checkedInAt !== null).length;
  const wanted = folded(search.trim());
  const listed = wanted ? people.filter((p) => folded(p.nombre).includes(wanted)) : people;
  // A typed code that matches nobody is the field's error; anything else is told below it.
  const codeError = outcome?.kind === "refused" && outcome.typed ? outcome.message : undefined;
  const shown = outcome && !(outcome.kind === "refused" && outcome.typed) ? outcome : null;

  return (
    <div className="page page-narrow admin-checkin">
      <p className="eyebrow">
        <Link to={`/admin/eventos/${event.id}/participantes`}>← Participantes</Link>
      </p>
      <h1>Registro: {event.nombreEvento}</h1>
      <p className="lead">
        <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
      </p>

      <div className="admin-checkin-status" role="status">
        <p className="admin-checkin-count">
          <strong>{present}</strong> de {people.length} presentes
        </p>
        <ul className="badge-list" aria-label="Conexión">
          <li className={online ? "badge admin-checkin-online" : "badge admin-checkin-offline"}>
            {online ? "En línea" : "Sin conexión"}
          </li>
          <li className="badge">
            {pending === 0
              ? "Todo enviado"
              : pending === 1
                ? "1 registro por enviar"
                : `${pending} registros por enviar`}
          </li>
        </ul>
        {sessionEnded ? (
          <p className="admin-checkin-warning">
            Tu sesión terminó: <Link to="/login">inicia sesión</Link> de nuevo para enviar los
            registros pendientes. Siguen guardados en este teléfono.
          </p>
        ) : null}
      </div>

      <div aria-live="assertive" aria-atomic="true">
        {shown ? (
          <section
            className={`card admin-checkin-result ${RESULT_CLASS[shown.kind]}`}
            aria-labelledby="checkin-result-title"
          >
            {shown.kind === "refused" ? (
              <>
                <h2 id="checkin-result-title">No registrado</h2>
                <p>
                  {shown.person ? `${shown.person.nombre}: ` : ""}
                  {shown.message}
                </p>
              </>
            ) : (
              <div className="admin-checkin-person">
                <Avatar name={shown.person.nombre} photoURL={shown.person.photoURL} size={96} />
                <div>
                  <h2 id="checkin-result-title">{shown.person.nombre}</h2>
                  <p className="admin-checkin-verdict">
                    {shown.kind === "in"
                      ? `Presente · ${timeOf(shown.person.checkedInAt!, timeZone)}`
                      : `Ya había entrado a las ${timeOf(shown.person.checkedInAt!, timeZone)}`}
                    {shown.kind === "already" && shown.person.checkedInBy
                      ? ` (registró ${shown.person.checkedInBy})`
                      : ""}
                  </p>
                </div>
              </div>
            )}
          </section>
        ) : (
          <p className="card admin-checkin-result admin-checkin-result-idle">
            Escanea el código QR de la persona o escribe su código.
          </p>
        )}
      </div>
      <section className="card admin-checkin-reader" aria-labelledby="reader-title">
        <h2 id="reader-title" className="visually-hidden">
          Registrar a una persona
        </h2>
        <QrScanner onCode={scanned} />
        <form method="post" className="form admin-checkin-form" onSubmit={typed} noValidate>
          <input type="hidden" name="intent" value="checkIn" />
          <Field
            id="checkin-code"
            name="codigo"
            label="Código de la persona"
            hint="8 letras y números, como ABCD-2345: está bajo su código QR."
            error={codeError}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={20}
                value={code}
                onChange={(change) => setCode(change.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button">
            Registrar
          </button>
        </form>
      </section>

      <section className="card" aria-labelledby="checkin-people-title">
        <h2 id="checkin-people-title">
          Participantes <span className="muted">({people.length})</span>
        </h2>
        {people.length === 0 ? (
          <EmptyState title="Nadie participa en este evento todavía." />
        ) : (
          <>
            {local ? (
              <Field id="checkin-search" name="buscar" label="Buscar por nombre">
                {(control) => (
                  <input
                    {...control}
                    type="search"
                    autoComplete="off"
                    value={search}
                    onChange={(change) => setSearch(change.target.value)}
                  />
                )}
              </Field>
            ) : null}
            <ul className="admin-checkin-people">
              {listed.map((p) => (
                <li key={p.userId}>
                  <Avatar name={p.nombre} photoURL={p.photoURL} size={32} />
                  <span className="admin-checkin-name">{p.nombre}</span>
                  {p.checkedInAt ? (
                    <span className="badge admin-checkin-present">
                      Presente · {timeOf(p.checkedInAt, timeZone)}
                    </span>
                  ) : local ? (
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      onClick={() => void markPresent(p)}
                      aria-label={`Marcar presente a ${p.nombre}`}
                    >
                      Marcar presente
                    </button>
                  ) : (
                    <span className="muted">Aún no llega</span>
                  )}
                </li>
              ))}
            </ul>
            {listed.length === 0 ? (
              <p className="muted">Nadie se llama así en este evento.</p>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}

/** The list as the phone keeps it (the page's data without what only the page needs). */
function checkInCopy(loaderData: CheckInPayload & { timeZone?: string }): CheckInPayload {
  const { generatedAt, event, participants } = loaderData;
  return { generatedAt, event, participants };
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
