// Every kind of mail with the domain that writes it: mail lays the drafts out and sends them
// (app/mail/compose.server.ts, worker.server.ts); the words are each domain's. The compiler checks
// that every kind in MAIL_KINDS has its writer.
import { COMPETITION_DRAFTS } from "~/competitions/mail-drafts.server";
import { EVENT_DRAFTS } from "~/events/mail-drafts.server";
import type { DraftWriter, MailDrafts } from "~/mail/compose.server";
import type { MailKind } from "~/mail/mail.server";
import { queueDueHoldReminders } from "~/payments/mails.server";
import { PAYMENT_DRAFTS } from "~/payments/mail-drafts.server";
import { site } from "~/site/copy/site";
import { SITE_DRAFTS } from "~/site/mail-drafts.server";

const writers = {
  ...EVENT_DRAFTS,
  ...PAYMENT_DRAFTS,
  ...COMPETITION_DRAFTS,
  ...SITE_DRAFTS,
} satisfies Record<MailKind, DraftWriter>;

export const MAIL_DRAFTS: MailDrafts = {
  siteName: site.name,
  writers,
  // Besides the events' reminders (the outbox's own), the mails due by the clock: a hold that
  // runs out soon (decision 048).
  queueDue: [(db, now, hours) => queueDueHoldReminders(db, now, hours.holdReminderHours)],
};
