// Home's community: its leaders, allies and sponsors, each a card of the accordion.
import { Accordion } from "~/site/components/accordion";
import { DemoNote } from "~/site/components/demo-note";
import { ExternalAction } from "~/site/components/external-action";
import { LandingImage } from "~/site/components/landing-image";
import { Reveal } from "~/site/components/reveal";
import { demoNotes } from "~/site/copy/demo-notes";
import { community } from "~/site/copy/home";
import type { Row } from "~/site/sections";
import type { Route } from "./+types/home";

type Organisation = Row<"name" | "description" | "logo" | "href">;
type HomeData = Route.ComponentProps["loaderData"];

function OrganisationList({ items, label }: { items: Organisation[]; label: string }) {
  return (
    <ul className="logo-grid" aria-label={label}>
      {items.map((item, i) => (
        <li key={i} className="logo-card">
          <LandingImage src={item.logo} alt="" width={320} height={160} sizes="320px" />
          <p className="logo-card-name">
            {item.href ? (
              <ExternalAction href={item.href} label={item.name} className={null} />
            ) : (
              item.name
            )}
          </p>
          {item.description ? <p className="muted">{item.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

export function CommunitySection({
  leaders,
  allies,
  sponsors,
  demo,
}: {
  leaders: HomeData["leaders"];
  allies: HomeData["allies"];
  sponsors: HomeData["sponsors"];
  /** The sections still holding the demo's content. */
  demo: ReadonlySet<string>;
}) {
  const communityCards = [
    leaders.length > 0
      ? {
          key: "ambassadors",
          ...community.cards.ambassadors,
          content: (
            <>
              {demo.has("leaders") ? <DemoNote>{demoNotes.leaders}</DemoNote> : null}
              <ul className="leaders" aria-label="Líderes de la comunidad">
                {leaders.map((leader, i) => (
                  <li key={i} className="leader">
                    <LandingImage
                      src={leader.image}
                      alt={`Foto de ${leader.name}`}
                      width={240}
                      height={240}
                      sizes="240px"
                    />
                    <p className="leader-name">{leader.name}</p>
                    {leader.role ? <p className="muted">{leader.role}</p> : null}
                  </li>
                ))}
              </ul>
            </>
          ),
        }
      : null,
    allies.length > 0
      ? {
          key: "allies",
          ...community.cards.allies,
          content: (
            <>
              {demo.has("allies") ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
              <OrganisationList items={allies} label="Aliados" />
            </>
          ),
        }
      : null,
    sponsors.sponsors.length > 0
      ? {
          key: "sponsors",
          ...community.cards.sponsors,
          content: (
            <>
              {demo.has("sponsors") ? <DemoNote>{demoNotes.organisations}</DemoNote> : null}
              {sponsors.intro ? <p>{sponsors.intro}</p> : null}
              <OrganisationList items={sponsors.sponsors} label="Patrocinadores" />
            </>
          ),
        }
      : null,
  ].filter((card) => card !== null);
  return (
    <section id="community" className="home-section" aria-labelledby="community-title">
      <Reveal>
        <h2 id="community-title">{community.title}</h2>
        <p className="section-intro">{community.intro}</p>
        <Accordion
          label={community.title}
          defaultOpen={communityCards[0]?.key ?? ""}
          items={communityCards}
        />
      </Reveal>
    </section>
  );
}
