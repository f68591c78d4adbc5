// Home (§2 Home): hero, community, courses, events, articles, featured. The fixed words come from
// app/site/copy/home.ts; the hero, people, logos, courses and links from the landing sections admins
// edit at /admin/sitio; events, notes and projects from what admins publish. A section or button
// without data is not shown.
import { noteSummary, projectSummary } from "~/publications/summaries";
import { ShaderBackground } from "~/site/components/shader-background";
import { site } from "~/site/copy/site";
import { homeSectionsShown, socialLinks, type Row } from "~/site/sections";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { loadDemoSections, loadSiteSections } from "~/site/sections.server";
import { eventState, listUpcomingEvents } from "~/events/event.server";
import { competitionCardText, competitionOnLanding, landingEvent } from "~/landing-events.server";
import { listLatestNotes } from "~/publications/note.server";
import { listLatestProjects } from "~/publications/project.server";
import type { Route } from "./+types/home";
import { ArticlesSection } from "./home-articles";
import { CommunitySection } from "./home-community";
import { CoursesSection, type CourseCard } from "./home-courses";
import { EventsSection } from "./home-events";
import { FeaturedSection } from "./home-featured";
import { HeroSection } from "./home-hero";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const now = context.now();
  const [upcoming, notes, projects, content, demo] = await Promise.all([
    listUpcomingEvents(context.db, 3, now),
    listLatestNotes(context.db, 3),
    listLatestProjects(context.db, 3),
    loadSiteSections(context.db),
    loadDemoSections(context.db),
  ]);
  // The competition card says what /events says (decision 076).
  const { headline } = await competitionOnLanding(
    context.db,
    content.competition,
    content.course,
    now,
    context.config.siteTimezone,
  );
  return {
    hero: content.hero,
    leaders: content.leaders.leaders,
    allies: content.allies.allies,
    sponsors: content.sponsors,
    courses: {
      current: await withCourseEvents(content.courses.current, context),
      past: content.courses.past,
    },
    competitionText: competitionCardText(headline, content.competition.tagline),
    // Our Talks opens the community's channel: the YouTube link among the social links.
    talksHref: socialLinks(content.social).find((l) => l.label === "YouTube")?.href ?? null,
    shown: homeSectionsShown(content),
    // The sections still holding the demo's content, marked as such on the page.
    demo,
    timeZone: context.config.siteTimezone,
    events: upcoming.map((event) => ({
      id: event.id,
      nombreEvento: event.nombreEvento,
      ubicacionEvento: event.ubicacionEvento,
      tipoEvento: event.tipoEvento,
      imagenEnlace: event.imagenEnlace,
      startsAt: event.startsAt.toISOString(),
      going: event.going,
      sessions: event.sessions,
      capacity: event.capacity,
      state: eventState(event, now),
    })),
    notes: notes.map(noteSummary),
    projects: projects.map(projectSummary),
  };
}

export function meta(_: Route.MetaArgs) {
  const title = `${site.name} — ${site.tagline}`;
  return [
    { title },
    { name: "description", content: site.description },
    { property: "og:title", content: title },
    { property: "og:description", content: site.description },
    { property: "og:type", content: "website" },
  ];
}

/**
 * A current course card that names one of the site's events registers in it (decisions 048 and
 * 076): its dates and price are the event's, and its button leads to the event's page. An event
 * over is said to have happened, with no button; an event gone is as none.
 */
async function withCourseEvents(
  rows: readonly (Row<"title" | "subtitle" | "dates" | "image" | "href" | "linkLabel"> & {
    eventId?: string;
  })[],
  context: Route.LoaderArgs["context"],
): Promise<CourseCard[]> {
  const now = context.now();
  return Promise.all(
    rows.map(async ({ eventId, ...row }) => {
      const event = await landingEvent(context.db, eventId, now, context.config.siteTimezone);
      if (!event) return { ...row, event: null };
      return {
        ...row,
        dates: event.dateLabel,
        href: event.over ? "" : row.href,
        event: event.over ? null : { id: event.id, price: event.price },
      };
    }),
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const {
    timeZone,
    events: upcoming,
    notes,
    projects,
    hero: heroSection,
    leaders,
    allies,
    sponsors,
    courses: courseLists,
    competitionText,
    talksHref,
  } = loaderData;
  const shown = new Set(loaderData.shown);
  const demo = new Set<string>(loaderData.demo);
  const user = useRootData()?.user;
  const visitor = !user;
  // What the buttons lead to, asked of the capability table as their pages ask it (decision 071).
  const mayPublishEvents = may(user, "event.create");
  const mayPublish = may(user, "publications.manage");

  return (
    <div className="home landing">
      <ShaderBackground />
      <HeroSection heroSection={heroSection} visitor={visitor} />
      {shown.has("community") ? (
        <CommunitySection leaders={leaders} allies={allies} sponsors={sponsors} demo={demo} />
      ) : null}
      {shown.has("courses") ? (
        <CoursesSection courseLists={courseLists} demo={demo.has("courses")} />
      ) : null}
      <EventsSection
        upcoming={upcoming}
        competitionText={competitionText}
        timeZone={timeZone}
        mayPublishEvents={mayPublishEvents}
      />
      <ArticlesSection
        notes={notes}
        talksHref={talksHref}
        timeZone={timeZone}
        mayPublish={mayPublish}
        demo={demo}
      />
      <FeaturedSection projects={projects} timeZone={timeZone} mayPublish={mayPublish} />
    </div>
  );
}
