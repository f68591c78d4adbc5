// A group chat's link (an event's, decision 047) by the app it opens: the pages and the mails name it alike.

/** The button to an event's group chat (decision 047): WhatsApp's or Telegram's by name. */
export function chatLinkLabel(url: string): string {
  let host = "";
  try {
    host = new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "Unirse al grupo del evento";
  }
  if (host === "chat.whatsapp.com" || host === "wa.me") return "Unirse al grupo de WhatsApp";
  if (host === "t.me" || host === "telegram.me") return "Unirse al grupo de Telegram";
  return "Unirse al grupo del evento";
}
