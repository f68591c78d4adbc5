// One card per kind of publication, the same on the home page and on /notas, /recursos, /proyectos.
import { ItemCard } from "~/ui/item-card";
import type { NoteSummary, ProjectSummary, ResourceSummary } from "~/publications/summaries";
import { formatDate } from "~/kernel/time";

type Heading = "h2" | "h3" | "h4";

function Published({ at, timeZone }: { at: string; timeZone: string }) {
  return <time dateTime={at}>{formatDate(at, timeZone)}</time>;
}

export function NoteCard({
  note,
  timeZone,
  heading = "h3",
}: {
  note: NoteSummary;
  timeZone: string;
  heading?: Heading;
}) {
  return (
    <ItemCard
      to={`/notas/${note.id}`}
      title={note.titulo}
      heading={heading}
      image={note.imagen}
      imageLabel="Nota"
      meta={<Published at={note.createdAt} timeZone={timeZone} />}
      text={note.texto}
    />
  );
}

export function ResourceCard({
  resource,
  timeZone,
  heading = "h3",
}: {
  resource: ResourceSummary;
  timeZone: string;
  heading?: Heading;
}) {
  const videos =
    resource.videos > 0
      ? ` · ${resource.videos} ${resource.videos === 1 ? "video" : "videos"}`
      : null;
  return (
    <ItemCard
      to={`/recursos/${resource.id}`}
      title={resource.titulo}
      heading={heading}
      image={resource.imagen}
      imageLabel="Recurso"
      meta={
        <>
          <Published at={resource.createdAt} timeZone={timeZone} />
          {videos}
        </>
      }
      text={resource.texto}
    />
  );
}

export function ProjectCard({
  project,
  timeZone,
  heading = "h3",
}: {
  project: ProjectSummary;
  timeZone: string;
  heading?: Heading;
}) {
  return (
    <ItemCard
      to={`/proyectos/${project.id}`}
      title={project.titulo}
      heading={heading}
      image={project.imagen}
      imageLabel="Proyecto"
      meta={<Published at={project.createdAt} timeZone={timeZone} />}
      text={project.texto}
    />
  );
}
