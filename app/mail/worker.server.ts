// The mail worker (docs/decisions/021-mail.md). Every server process runs one; they share the
// queue in the database. A batch is claimed in one statement (FOR UPDATE SKIP LOCKED, so two
// processes never claim the same row) and the claim is a lease: the row says 'sending' until
// `next_attempt_at`, and only the claim that took it may mark it sent. A process that dies while
// sending leaves the row to be claimed again once the lease lapses; an SMTP server that refuses
// or cannot be reached gets the mail again later, with exponential backoff. Sent means the SMTP
// server accepted it, so a mail is sent at least once; it is sent twice only if the process dies
// between the server's acceptance and the next statement (both copies carry one Message-ID).
// Reminders are queued by every process's run, each at most once (a dedupe key); the hourly
// cleanup of old rows is claimed by one process (docs/decisions/031-limits-and-jobs-across-nodes.md).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import MailComposer, { type MailComposerOptions } from "nodemailer/lib/mail-composer";
import type { Config } from "~/kernel/config.server";
import type { Database, Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { claimJobRun } from "~/db/jobs.server";
import { onUpgradeTrial } from "~/kernel/upgrade-trial.server";
import { queueDueReminders, type QueuedMail } from "./mail.server";
import { composeMail, mailSite, type MailDrafts, type MailSite } from "./compose.server";

/** Where composed messages go: an SMTP server, or the development mailbox. */
export interface MailTransport {
  /** Sends; `signal` cancels a send not yet accepted (the process is stopping). */
  send(message: MailComposerOptions, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/** An error the transport says will not change however often the mail is tried (SMTP 5xx). */
function isPermanent(error: unknown): boolean {
  return (error as { permanent?: unknown } | null)?.permanent === true;
}

/**
 * SMTP through nodemailer, one connection per send. The timeouts keep every send well inside
 * the claim's lease: a mail is never still being sent when another process may take it.
 */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async send(message, signal) {
      await transporter.sendMail({ ...message, signal });
    },
    close: () => transporter.close(),
  };
}

/**
 * The development mailbox: the message is built as it would be sent (so a mistake in it shows
 * here too) and kept in the database, where /__dev/correo shows it.
 */
export function mailboxTransport(): MailTransport {
  return {
    async send(message) {
      await new MailComposer(message).compile().build();
    },
    close: () => {},
  };
}

export interface MailWorkerOptions {
  db: Db;
  site: MailSite;
  /** Each kind's words and the mails due by the clock (app/mail-drafts.server.ts). */
  drafts: MailDrafts;
  transport: MailTransport;
  reminderHours: number;
  /** How long before a held place runs out its member is warned (decision 048); 6 by default. */
  holdReminderHours?: number;
  /** The clock (tests move it by hand). */
  now?: () => Date;
  /** How long to wait before the attempt after `attempts` failed ones. */
  backoffMs?: (attempts: number) => number;
  /** How long a claim lasts: far longer than a send may take (see smtpTransport). */
  leaseMs?: number;
  batchSize?: number;
  /** Attempts after which a mail that keeps failing is given up. */
  maxAttempts?: number;
  /** A mail not sent within this long after it was queued is given up (it would be stale). */
  maxAgeMs?: number;
  /** Errors that are not about one mail (the database is down). */
  onError?: (error: unknown) => void;
  /** While this says so, the worker sends nothing (an upgrade's trial run); asked at each wake. */
  paused?: () => boolean;
}

/** One minute, doubling with each failure, at most an hour. */
export const defaultBackoff = (attempts: number) =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);

const HOUR = 60 * 60_000;

export interface RunReport {
  sent: number;
  retried: number;
  failed: number;
  reminders: number;
}

export interface MailWorker {
  /** Queues due reminders, then sends everything due, batch after batch, until nothing is. */
  runOnce(): Promise<RunReport>;
  /** Runs now, whenever a mail is queued (NOTIFY) and every `intervalMs`. */
  start(database: Pick<Database, "listen">, intervalMs?: number): Promise<void>;
  /**
   * Stops: a send in progress is cancelled (the mail goes back to the queue, to be sent by this
   * or another process later) and marked before this resolves.
   */
  stop(): Promise<void>;
}

type Claimed = QueuedMail & { createdAt: string };

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, site, transport } = options;
  const now = options.now ?? (() => new Date());
  const backoff = options.backoffMs ?? defaultBackoff;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = options.maxAttempts ?? 25;
  const maxAgeMs = options.maxAgeMs ?? 72 * HOUR;
  let stopped = false;
  const stopping = new AbortController();
  let lastCleanup = 0;

  async function claim(at: Date, claimId: string): Promise<Claimed[]> {
    const iso = at.toISOString();
    const rows = rowsOf<{
      id: string;
      kind: QueuedMail["kind"];
      data: QueuedMail["data"];
      attempts: number;
      created_at: string | Date;
      email: string;
      name: string;
      mail_token: string;
    }>(
      await db.execute(sql`update mail_outbox o
        set status = 'sending', attempts = o.attempts + 1, claim_id = ${claimId}::uuid,
          next_attempt_at = ${iso}::timestamptz + make_interval(secs => ${leaseMs / 1000})
        from (select m.id from mail_outbox m
              where m.status in ('pending', 'sending') and m.next_attempt_at <= ${iso}::timestamptz
              order by m.next_attempt_at, m.id
              limit ${batchSize}
              for update skip locked) c, users u
        where o.id = c.id and u.id = o.user_id
        returning o.id, o.kind, o.data, o.attempts, o.created_at, u.email,
          coalesce(nullif(u.nombre_completo, ''), nullif(u.display_name, ''), '') as name,
          u.mail_token`),
    );
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      data: r.data,
      attempts: r.attempts,
      email: r.email,
      name: r.name,
      mailToken: r.mail_token,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async function markSent(mail: Claimed, claimId: string) {
    await db.execute(sql`update mail_outbox
      set status = 'sent', sent_at = ${now().toISOString()}::timestamptz, claim_id = null, last_error = null
      where id = ${mail.id}::uuid and claim_id = ${claimId}::uuid`);
  }

  async function markFailed(mail: Claimed, claimId: string, error: string, giveUp: boolean) {
    const retryAt = new Date(now().getTime() + backoff(mail.attempts)).toISOString();
    await db.execute(sql`update mail_outbox
      set status = ${giveUp ? "failed" : "pending"}, claim_id = null, last_error = ${error.slice(0, 500)},
        next_attempt_at = ${retryAt}::timestamptz
      where id = ${mail.id}::uuid and claim_id = ${claimId}::uuid`);
  }

  /** Sends one claimed mail and records the outcome; returns it. */
  async function deliver(mail: Claimed, claimId: string): Promise<keyof RunReport> {
    const at = now();
    // A reminder is for an upcoming session (or, queued before sessions, event): once it has
    // begun, it is not sent.
    if (
      mail.kind === "reminder" &&
      (mail.data.session
        ? new Date(mail.data.session.startsAt) <= at
        : mail.data.event && new Date(mail.data.event.startsAt) <= at)
    ) {
      await markFailed(mail, claimId, "El evento ya empezó: el recordatorio no se envía.", true);
      return "failed";
    }
    if (at.getTime() - new Date(mail.createdAt).getTime() > maxAgeMs) {
      await markFailed(mail, claimId, "Caducado: no se pudo enviar a tiempo.", true);
      return "failed";
    }
    let message: MailComposerOptions;
    try {
      message = composeMail(mail, site, options.drafts);
    } catch (error) {
      await markFailed(mail, claimId, `No se pudo escribir: ${String(error)}`, true);
      return "failed";
    }
    try {
      await transport.send(message, stopping.signal);
    } catch (error) {
      const giveUp = isPermanent(error) || mail.attempts >= maxAttempts;
      await markFailed(
        mail,
        claimId,
        error instanceof Error ? error.message : String(error),
        giveUp,
      );
      return giveUp ? "failed" : "retried";
    }
    await markSent(mail, claimId);
    return "sent";
  }

  async function cleanup(at: Date) {
    if (at.getTime() - lastCleanup < HOUR) return;
    lastCleanup = at.getTime();
    // Once an hour across all processes: the one that claims the run deletes.
    if (!(await claimJobRun(db, "mail-outbox-cleanup", HOUR))) return;
    // Kept 90 days: the development mailbox, a member's data export, and the reminders' dedupe
    // (an event reminded of has started long before).
    await db.execute(sql`delete from mail_outbox
      where status in ('sent', 'failed') and created_at < ${at.toISOString()}::timestamptz - interval '90 days'`);
  }

  async function runOnce(): Promise<RunReport> {
    const report: RunReport = { sent: 0, retried: 0, failed: 0, reminders: 0 };
    const at = now();
    report.reminders = await queueDueReminders(db, at, options.reminderHours);
    for (const queueDue of options.drafts.queueDue)
      report.reminders += await queueDue(db, at, {
        holdReminderHours: options.holdReminderHours ?? 6,
      });
    await cleanup(at);
    while (!stopped) {
      const claimId = randomUUID();
      const batch = await claim(now(), claimId);
      if (batch.length === 0) break;
      for (const mail of batch) {
        if (stopped) break;
        report[await deliver(mail, claimId)]++;
      }
      // Stopping: what this claim took and did not try goes back at once, not when the lease lapses.
      if (stopped)
        await db.execute(sql`update mail_outbox
          set status = 'pending', claim_id = null, attempts = attempts - 1,
            next_attempt_at = ${now().toISOString()}::timestamptz
          where claim_id = ${claimId}::uuid and status = 'sending'`);
    }
    return report;
  }

  // One run at a time in a process; a wake-up during a run asks for one more after it.
  let running: Promise<unknown> | null = null;
  let again = false;
  let failing = false;
  const onError =
    options.onError ??
    ((error: unknown) => console.error("El envío de correos falló; se reintentará:", error));
  const wake = () => {
    if (stopped || options.paused?.()) return;
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .then(() => (failing = false))
      .catch((error: unknown) => {
        // Said once while it lasts (a database that is down would say it every minute).
        if (!failing && !stopped) onError(error);
        failing = true;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  return {
    runOnce,
    async start(database, intervalMs = 60_000) {
      unlisten = await database.listen("ayllu_mail", wake);
      timer = setInterval(wake, intervalMs);
      timer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      if (timer) clearInterval(timer);
      await unlisten?.().catch(() => {});
      while (running) await running;
      transport.close();
    },
  };
}

/** The worker of a server process, as the configuration says; null when no mail is sent. */
export function mailWorkerFor(
  db: Db,
  config: Pick<Config, "mail" | "publicUrl" | "siteTimezone" | "dataDir">,
  drafts: MailDrafts,
): MailWorker | null {
  const { transport } = config.mail;
  if (transport.kind === "none") return null;
  return createMailWorker({
    db,
    site: mailSite(config),
    drafts,
    transport: transport.kind === "smtp" ? smtpTransport(transport.url) : mailboxTransport(),
    reminderHours: config.mail.reminderHours,
    holdReminderHours: config.mail.holdReminderHours,
    paused: () => onUpgradeTrial(config.dataDir),
  });
}
