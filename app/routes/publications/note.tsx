// /notas/:id — one note.
import {
  PublicationImage,
  PublicationText,
  LinkList,
} from "~/publications/components/publication-text";
import { formatDateTime } from "~/kernel/time";
import { getNote } from "~/publications/note.server";
import { notFound } from "~/kernel/not-found";
import type { Route } from "./+types/note";
import { summaryOf } from "~/publications/summaries";
import { shareMeta } from "./share-meta";
import { cardPath, type LinkCardHandle } from "~/site/link-preview";
import { BackLink } from "~/ui/back-link";
import { Share } from "~/ui/share";
import type { WithoutScripts } from "~/site/light-mode";

export async function loader({ params, context }: Route.LoaderArgs) {
  const note = await getNote(context.db, params.id);
  if (!note) notFound();
  const origin = context.config.publicUrl.origin;
  return {
    origin,
    timeZone: context.config.siteTimezone,
    note: {
      id: note.id,
      titulo: note.titulo,
      texto: note.texto,
      enlaceImagen: note.enlaceImagen,
      enlacesAdicionales: note.enlacesAdicionales,
      createdAt: note.createdAt.toISOString(),
      publisherName: note.publisherName,
    },
  };
}

/** The link preview's card (decision 046). */
export const handle: LinkCardHandle<Awaited<ReturnType<typeof loader>>> & WithoutScripts = {
  withoutScripts: true,
  linkCard: (data) => (data ? cardPath("nota", data.note.id) : null),
};

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Página no encontrada — Ayllu" }];
  const { note, origin } = loaderData;
  return shareMeta({
    title: note.titulo,
    description: summaryOf(note.texto),
    url: `${origin}/notas/${note.id}`,
  });
}

export default function NotePage({ loaderData }: Route.ComponentProps) {
  const { note, timeZone, origin } = loaderData;
  return (
    <article className="page page-narrow publication-page">
      <BackLink to="/notas" label="Todas las notas" />
      <h1>{note.titulo}</h1>
      <p className="muted">
        <time dateTime={note.createdAt}>{formatDateTime(note.createdAt, timeZone)}</time> ·{" "}
        {note.publisherName}
      </p>
      <Share title={note.titulo} url={`${origin}/notas/${note.id}`} />
      <PublicationImage src={note.enlaceImagen} alt="" className="publication-hero-image" />
      <PublicationText text={note.texto} />
      <LinkList title="Enlaces" links={note.enlacesAdicionales} />
    </article>
  );
}
