// The sign-in mail goes out at once, through its own short-timeout SMTP connection, while the
// person waits on the page: it is not queued in mail_outbox, whose rows outlive the mail and would
// keep the link's secret, and whose retries over hours outlast a link of 15 minutes
// (docs/decisions/034-sign-in-by-link.md). Sent means the SMTP server accepted it.
import nodemailer from "nodemailer";
import type { Config } from "~/kernel/config.server";
import { composeSignInMail, mailSite } from "./compose.server";

export interface SignInMailer {
  send(link: { to: string; url: string; expiresAt: Date }): Promise<void>;
}

/** The sender of sign-in mails; null without SMTP (outside production the page shows the link). */
export function signInMailerFor(
  config: Pick<Config, "mail" | "publicUrl" | "siteTimezone">,
  siteName: string,
): SignInMailer | null {
  const { transport } = config.mail;
  if (transport.kind !== "smtp") return null;
  const site = mailSite(config);
  const transporter = nodemailer.createTransport({
    url: transport.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(link) {
      await transporter.sendMail(composeSignInMail(link, site, siteName));
    },
  };
}
