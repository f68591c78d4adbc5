// Every message a page may show after a redirect, by key: each domain's own, word for word as the
// specification (§8) gives them. Flash messages travel by key, so a cookie can only ever show one
// of these.
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import { COMPETITION_MESSAGES } from "~/competitions/messages";
import { EVENT_MESSAGES } from "~/events/messages";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { MAIL_MESSAGES } from "~/mail/messages";
import { MEMBER_MESSAGES } from "~/members/messages";
import { PAYMENT_MESSAGES } from "~/payments/messages";
import { PUBLICATION_MESSAGES } from "~/publications/messages";
import { SITE_MESSAGES } from "~/site/messages";

export const MESSAGES = {
  ...KERNEL_MESSAGES,
  ...MEMBER_MESSAGES,
  ...EVENT_MESSAGES,
  ...ATTENDANCE_MESSAGES,
  ...PUBLICATION_MESSAGES,
  ...MAIL_MESSAGES,
  ...SITE_MESSAGES,
  ...PAYMENT_MESSAGES,
  ...COMPETITION_MESSAGES,
} as const;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(MESSAGES, value);
}
