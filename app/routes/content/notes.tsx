// /notas — every note, newest first.
import { Link } from "react-router";
import { ContentImage } from "~/components/content/content-text";
import { formatDate } from "~/lib/time";
import { listNotes } from "#server/models/note.server";
import type { Route } from "./+types/notes";
import { shareMeta, summaryOf } from "./share-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const notes = await listNotes(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    notes: notes.map((n) => ({
      id: n.id,
      titulo: n.titulo,
      texto: summaryOf(n.texto, 240),
      enlaceImagen: n.enlaceImagen,
      createdAt: n.createdAt.toISOString(),
    })),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Notas de la comunidad",
    description:
      "Noticias de la comunidad Ayllu: robótica y tecnología de código abierto en Bolivia.",
    image: null,
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
  const { notes, timeZone } = loaderData;
  return (
    <div className="page content-page">
      <h1>Notas de la comunidad</h1>
      <p className="muted">
        <a href="/notas/rss.xml">Suscríbete por RSS</a>
      </p>
      {notes.length === 0 ? (
        <p>No hay notas publicadas.</p>
      ) : (
        <ul className="content-cards">
          {notes.map((note) => (
            <li key={note.id} className="card content-card">
              <ContentImage src={note.enlaceImagen} alt="" className="content-card-image" />
              <h2>
                <Link to={`/notas/${note.id}`}>{note.titulo}</Link>
              </h2>
              <p className="muted">
                <time dateTime={note.createdAt}>{formatDate(note.createdAt, timeZone)}</time>
              </p>
              <p className="content-text">{note.texto}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
