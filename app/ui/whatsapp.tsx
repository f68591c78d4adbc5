// WhatsApp first (decision 047): most of our members live in WhatsApp, not in their
// inbox. A plain link to wa.me opens WhatsApp (the app on a phone, the web elsewhere) with a
// message written for them, to a contact, a group or themselves; it needs no script and no
// paid messaging API.

/** WhatsApp's link that opens a new message with `text`, the recipient chosen there. */
export function whatsappUrl(text: string): string {
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}

export function BubbleIcon() {
  return (
    <svg className="whatsapp-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path
        fill="currentColor"
        d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6a2.7 2.7 0 0 0 1.8-1.2 2.2 2.2 0 0 0 .1-1.3c0-.1-.2-.2-.4-.3z"
      />
    </svg>
  );
}

/**
 * A button-looking link that opens WhatsApp with `text`. `label` is what it says; `context` is
 * read after it by screen readers (what is shared, or to whom).
 */
export function WhatsAppLink({
  text,
  label,
  context,
  secondary = false,
}: {
  text: string;
  label: string;
  context?: string;
  secondary?: boolean;
}) {
  return (
    <a
      className={`button ${secondary ? "button-secondary" : "button-whatsapp"}`}
      href={whatsappUrl(text)}
      target="_blank"
      rel="noopener noreferrer"
    >
      <BubbleIcon />
      {label}
      <span className="visually-hidden">
        {context ? ` ${context}` : ""} (se abre WhatsApp en una pestaña nueva)
      </span>
    </a>
  );
}
