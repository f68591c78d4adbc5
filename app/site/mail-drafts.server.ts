// The site's own mail: the welcome, once a member's profile is complete, in the site's words.
import type { Draft, DraftWriter, MailSite } from "~/mail/compose.server";
import type { MailKind } from "~/mail/mail.server";
import { site as siteCopy } from "./copy/site";

/** "Comunidad de…" as it reads inside a sentence: "…parte de Ayllu, comunidad de…". */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function welcomeDraft(_mail: unknown, site: MailSite): Draft {
  return {
    subject: `Te damos la bienvenida a ${siteCopy.name}`,
    paragraphs: [
      `Tu perfil está completo: ya eres parte de ${siteCopy.name}, ${lowerFirst(siteCopy.tagline)}.`,
      "Inscríbete en los próximos eventos; te escribiremos para confirmarlo, recordártelo y avisarte si algo cambia. En tu perfil eliges qué correos quieres recibir.",
    ],
    action: { label: "Ver los próximos eventos", url: `${site.origin}/eventos` },
    reason: `completaste tu perfil en ${siteCopy.name}`,
  };
}

/** The site's kinds of mail, each with its writer. */
export const SITE_DRAFTS = {
  welcome: welcomeDraft,
} as const satisfies Partial<Record<MailKind, DraftWriter>>;
