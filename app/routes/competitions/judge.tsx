// /admin/eventos/:eventId/jurado/:categoryId — the judge's screen (decision 059):
// the category's judges, the event's organisers and admins enter its results on a phone —
// a time trial's runs, a bracket's rounds, their own score sheet. It works without a connection:
// the page is kept by a service worker (app/attendance/offline-worker.js, at /jurado-sw.js), and
// the entries wait in the phone's queue (useJudgeSync, over IndexedDB) until they are sent to
// …/datos. Without JavaScript every form posts here and the page says what happened.
import { Link } from "react-router";
import { ErrorPage } from "~/error-page";
import {
  EntryLog,
  JudgeRules,
  JudgeStatus,
  LastOutcome,
  NoOutcomeYet,
  OrganiserPrep,
  outcomeText,
} from "~/competitions/components/judge-screen";
import { BracketPanel } from "~/competitions/components/judge-bracket";
import { ScoreSheetPanel } from "~/competitions/components/judge-score-sheet";
import { TimeTrialPanel } from "~/competitions/components/judge-time-trial";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { useJudgeSync } from "~/competitions/judging/use-judge-sync";
import { useOwnDocument } from "~/kernel/use-own-document";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/judge";
import { judgeAction, loadJudgePage, requireJudge, requireJudgeWithForm } from "./judge.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireJudge(request, context, params.eventId, params.categoryId);
  return loadJudgePage(user, params.categoryId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, form } = await requireJudgeWithForm(
    request,
    context,
    params.eventId,
    params.categoryId,
  );
  return judgeAction(form, context, user, params.categoryId);
}

export function meta({ loaderData, params }: Route.MetaArgs) {
  return [
    {
      tagName: "link",
      rel: "manifest",
      href: `/admin/eventos/${params.eventId}/jurado/${params.categoryId}/app.webmanifest`,
    },
    { tagName: "link", rel: "apple-touch-icon", href: "/icons/logo-192.png" },
    {
      title: loaderData ? `Jurado: ${loaderData.board.category.name} — Ayllu` : "Jurado — Ayllu",
    },
    { name: "robots", content: "noindex" },
  ];
}

export default function Judge({ loaderData, actionData }: Route.ComponentProps) {
  useOwnDocument();
  const sync = useJudgeSync(loaderData.board);
  const { board } = sync;
  const { category } = board;
  const { entryId } = loaderData;
  const onEntry = sync.local
    ? (...args: Parameters<typeof sync.submit>) => void sync.submit(...args)
    : null;
  const entryReply = actionData ?? null;
  const last = sync.entries.at(-1);
  return (
    <div className="page page-narrow judge">
      <BackLink to={`/detalles/${category.eventId}`} label={category.eventName} />
      <p className="eyebrow">Jurado · {category.formatLabel}</p>
      <div className="judge-title">
        <h1>{category.name}</h1>
        <JudgeRules category={category} />
      </div>
      {category.final ? (
        <p className="judge-final" role="note">
          {JUDGING_MESSAGES.final}
        </p>
      ) : null}
      {/* One place for what happened, kept the same height so the form never moves under the thumb. */}
      <div className="judge-feedback">
        {sync.local ? (
          <JudgeStatus
            online={sync.online}
            pending={sync.pending}
            sessionEnded={sync.sessionEnded}
          />
        ) : null}
        <div aria-live="polite" aria-atomic="true">
          {!sync.local ? null : last ? (
            <LastOutcome
              label={last.label}
              text={outcomeText(last, sync.online)}
              refused={last.answer !== null && !last.answer.ok}
            />
          ) : (
            <NoOutcomeYet />
          )}
        </div>
        {!sync.local && entryReply ? (
          <div role={entryReply.ok ? "status" : "alert"}>
            <LastOutcome
              label=""
              text={entryReply.ok ? entryReply.message : `No se anotó: ${entryReply.message}`}
              refused={!entryReply.ok}
            />
          </div>
        ) : null}
      </div>
      {category.format === "tiempo" ? (
        <TimeTrialPanel
          board={board}
          entryId={entryId}
          runs={sync.runs}
          ranking={sync.ranking}
          onEntry={onEntry}
        />
      ) : category.format === "llaves" ? (
        <BracketPanel
          board={board}
          entryId={entryId}
          bracket={sync.bracket}
          pendingRounds={sync.pendingRounds}
          onEntry={onEntry}
        />
      ) : (
        <ScoreSheetPanel board={board} entryId={entryId} sheets={sync.sheets} onEntry={onEntry} />
      )}
      <EntryLog entries={sync.entries} online={sync.online} />
      <OrganiserPrep board={board} />
      <p className="judge-links">
        <Link to={`/detalles/${category.eventId}/resultados`}>Resultados en vivo</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
