import path from 'node:path';
import { and, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { OneRunAtATime } from '../common/one-run';
import type { MailConfig } from '../config';
import type { Database, Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { type Rendered, type TemplateName, templates } from './templates';
import { type MailTransport, outboxTransport, smtpTransport } from './transport';

/** Tries before a message is given up (the last about a day and a half after the first). */
export const MAX_ATTEMPTS = 8;
/** Wait after the nth failed try: 1, 5, 15 minutes, then 1, 3, 6, 12 hours. */
const RETRY_AFTER_MINUTES = [1, 5, 15, 60, 180, 360, 720];
/** A claimed message not finished in this time (the process died while sending) goes again. */
const CLAIM_MS = 2 * 60 * 1000;
const BATCH = 20;
const TICK_MS = 5000;

interface OutboxRow {
  id: string;
  to_address: string;
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string> | null;
  attempts: number;
}

export interface SendOptions {
  /** Extra headers: an optional email's List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
}

/**
 * Adds `template` for `to` to the outbox inside the caller's database transaction: for commands,
 * which have no app (the worker finds the row on its next tick). `now` is the app's clock, in ms.
 */
export async function queueMail<T extends TemplateName>(
  db: Db,
  now: number,
  to: string,
  template: T,
  data: Parameters<(typeof templates)[T]>[0],
  options: SendOptions = {},
): Promise<void> {
  const rendered: Rendered = (templates[template] as (d: typeof data) => Rendered)(data);
  await db.insert(mailOutbox).values({
    toAddress: to,
    template: rendered.template,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
    headers: options.headers ?? null,
    nextAttemptAt: new Date(now),
  });
}

/**
 * The mail queue (docs/decisions/035): `send` adds a row to `mail_outbox` and returns at once;
 * a worker in every instance delivers due rows (each claimed by one instance with SKIP LOCKED),
 * retries failures with growing waits, and logs each failure without the recipient.
 */
export class MailQueue {
  readonly transport: MailTransport;
  private timer: NodeJS.Timeout | undefined;
  private readonly runs = new OneRunAtATime(async () => {
    let delivered = 0;
    for (let batch = await this.claim(); batch.length > 0; batch = await this.claim()) {
      for (const row of batch) if (await this.deliver(row)) delivered++;
    }
    return delivered;
  });

  constructor(
    private readonly database: Database,
    private readonly config: MailConfig,
    dataDir: string,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
  ) {
    this.transport = config.smtpUrl
      ? smtpTransport(config.smtpUrl)
      : outboxTransport(path.join(dataDir, 'outbox'), log);
  }

  /**
   * Queues `template` for `to`. Inside a database transaction pass it as `db` (the message goes
   * only if the change commits) and call `kick()` after the commit; otherwise it is kicked here.
   */
  async send<T extends TemplateName>(
    to: string,
    template: T,
    data: Parameters<(typeof templates)[T]>[0],
    db?: Db,
    options: SendOptions = {},
  ): Promise<void> {
    await queueMail(db ?? this.database.db, this.now(), to, template, data, options);
    if (!db) this.kick();
  }

  /** Delivers what is due soon, without waiting for the next tick. */
  kick() {
    void this.deliverDue().catch((err) => this.log.error({ err }, 'mail worker failed'));
  }

  /** Delivers every due message; one run at a time (a call during a run makes it go round again). */
  deliverDue(): Promise<number> {
    return this.runs.run();
  }

  start() {
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
    this.kick();
  }

  async stop() {
    clearInterval(this.timer);
    await this.runs.current?.catch(() => {});
    this.transport.close();
  }

  /** Messages sent or given up more than 30 days ago (swept hourly). */
  async deleteOld() {
    const removed = await this.database.db
      .delete(mailOutbox)
      .where(
        and(
          inArray(mailOutbox.status, ['sent', 'failed']),
          lt(mailOutbox.createdAt, new Date(this.now() - 30 * 24 * 60 * 60 * 1000)),
        ),
      )
      .returning({ id: mailOutbox.id });
    return removed.length;
  }

  /** Claims due messages for this instance: each try counted, and pushed on in case we die. */
  private async claim(): Promise<OutboxRow[]> {
    const now = new Date(this.now());
    const { rows } = await this.database.pool.query<OutboxRow>({
      name: 'cardbridge-mail-claim',
      text: `update mail_outbox
                set attempts = attempts + 1,
                    next_attempt_at = $1::timestamptz + $2 * interval '1 millisecond'
              where id in (select id from mail_outbox
                            where status = 'pending' and next_attempt_at <= $1
                            order by next_attempt_at
                            limit $3
                              for update skip locked)
          returning id, to_address, template, subject, text_body, html_body, headers, attempts`,
      values: [now, CLAIM_MS, BATCH],
    });
    return rows;
  }

  private async deliver(row: OutboxRow): Promise<boolean> {
    try {
      await this.transport.send({
        id: row.id,
        from: this.config.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.headers ? { headers: row.headers } : {}),
      });
    } catch (error) {
      await this.failed(row, error as Error);
      return false;
    }
    // Sent: the bodies go (a reset link's token must not outlive its use in a readable table).
    await this.database.pool.query({
      name: 'cardbridge-mail-sent',
      // The goodbye to an erased account's address: once sent, the address goes too (decision 083).
      text: `update mail_outbox set status = 'sent', sent_at = $2, text_body = '', html_body = '',
                    last_error = null,
                    to_address = case when template = 'account-deleted' then 'erased@invalid'
                                      else to_address end
              where id = $1`,
      values: [row.id, new Date(this.now())],
    });
    return true;
  }

  private async failed(row: OutboxRow, error: Error) {
    const givenUp = row.attempts >= MAX_ATTEMPTS;
    const waitMinutes =
      RETRY_AFTER_MINUTES[Math.min(row.attempts, RETRY_AFTER_MINUTES.length) - 1]!;
    // The transport's message, without anything that could carry the password in SMTP_URL.
    const reason = `${(error as { code?: string }).code ?? error.name}: ${error.message}`.slice(
      0,
      500,
    );
    await this.database.pool.query({
      name: 'cardbridge-mail-failed',
      text: `update mail_outbox
                set status = $2::varchar, last_error = $3,
                    next_attempt_at = $4::timestamptz + $5 * interval '1 minute',
                    text_body = case when $2::varchar = 'failed' then '' else text_body end,
                    html_body = case when $2::varchar = 'failed' then '' else html_body end
              where id = $1`,
      values: [row.id, givenUp ? 'failed' : 'pending', reason, new Date(this.now()), waitMinutes],
    });
    const entry = { mail: row.id, template: row.template, attempt: row.attempts, reason };
    if (givenUp) this.log.error(entry, 'mail could not be delivered; given up');
    else
      this.log.warn({ ...entry, retryInMinutes: waitMinutes }, 'mail delivery failed; will retry');
  }
}
