// Sharing a page: WhatsApp first, as a plain link that works without JavaScript, then the
// phone's own share sheet (or the link copied) once the page is interactive.
import { ShareButton } from "~/ui/share-button";
import { WhatsAppLink } from "~/ui/whatsapp";

/** The message a share opens with: the title, a line about it if any, and the link. */
export function shareText(title: string, url: string, line?: string | null): string {
  return [title, line, url].filter(Boolean).join("\n");
}

export function Share({
  title,
  url,
  line,
}: {
  title: string;
  url: string;
  /** When and where, for an event; nothing for a note. */
  line?: string | null;
}) {
  return (
    <div className="share-row">
      <WhatsAppLink
        text={shareText(title, url, line)}
        label="WhatsApp"
        context={`: compartir «${title}»`}
        secondary
      />
      <ShareButton title={title} url={url} />
    </div>
  );
}
