// /notas — every note, newest first.
import { PublicationsEmptyState } from "~/publications/components/empty-state";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { NoteCard } from "~/publications/components/publication-cards";
import { noteSummary } from "~/publications/summaries";
import { listNotes } from "~/publications/note.server";
import type { Route } from "./+types/notes";
import { shareMeta } from "./share-meta";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const notes = await listNotes(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    notes: notes.map(noteSummary),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Notas de la comunidad",
    description:
      "Noticias de la comunidad Ayllu: robótica y tecnología de código abierto en Bolivia.",
    url: `${loaderData?.origin ?? ""}/notas`,
    type: "website",
  }).concat([
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "Notas de Ayllu (RSS)",
      href: "/notas/rss.xml",
    },
  ]);
}

export default function Notes({ loaderData }: Route.ComponentProps) {
  const canPublish = may(useRootData()?.user, "publications.manage");
  const { notes, timeZone } = loaderData;
  return (
    <div className="page publication-page">
      <h1>Notas de la comunidad</h1>
      <p className="muted">
        <a className="inline-action" href="/notas/rss.xml">
          Suscríbete por RSS
        </a>
      </p>
      {notes.length === 0 ? (
        <PublicationsEmptyState
          canPublish={canPublish}
          title="No hay notas publicadas."
          publishLabel="Publicar una nota"
        />
      ) : (
        <ul className="item-grid">
          {notes.map((note) => (
            <NoteCard key={note.id} note={note} timeZone={timeZone} heading="h2" />
          ))}
        </ul>
      )}
    </div>
  );
}
