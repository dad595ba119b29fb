import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Command } from '../../common/command';
import { OneRunAtATime } from '../../common/one-run';
import type { AppConfig } from '../../config';
import { openText } from '../../encryption';
import { checkWebhookUrl, UnsafeWebhookUrl } from './address';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  recordAttempts,
  SECRET_PURPOSE,
} from './commands';
import { type Attempt, sendDelivery } from './send';

const TICK_MS = 1000;
const BATCH = 50;
/** Deliveries sent at once by one instance. */
const CONCURRENCY = 16;

/**
 * The Standard Webhooks headers of one delivery: its id (the same on every retry), the time it
 * is sent (the wall clock, which the receiver checks against its own) and the signature with the
 * endpoint's secret, and with its previous one while that is still valid after a rotation.
 */
export function signedHeaders(
  config: AppConfig,
  delivery: ClaimedDelivery,
  body: string,
  now: number,
): Record<string, string> {
  const id = `msg_${delivery.id.replaceAll('-', '')}`;
  const at = new Date();
  const secrets = [delivery.secret];
  if (delivery.previousSecret && (delivery.previousSecretUntil?.getTime() ?? 0) > now) {
    secrets.push(delivery.previousSecret);
  }
  const signatures = secrets.map((sealed) =>
    new Webhook(openText(config.encryption, SECRET_PURPOSE, sealed)).sign(id, at, body),
  );
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

/**
 * Sends the webhook outbox (decision 127): every instance claims due deliveries each second (each
 * one goes to one instance), checks the URL's addresses again, signs and posts them, and records
 * the outcome; a failure waits its turn on the retry schedule.
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private readonly runs = new OneRunAtATime(async () => {
    let sent = 0;
    for (;;) {
      const due = await this.run((context) => claimDueDeliveries(context, BATCH));
      if (due.length === 0) break;
      for (let i = 0; i < due.length; i += CONCURRENCY) {
        await this.deliver(due.slice(i, i + CONCURRENCY));
      }
      sent += due.length;
    }
    return sent;
  });

  constructor(
    private readonly run: <T>(command: Command<T>) => Promise<T>,
    private readonly config: AppConfig,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start() {
    this.timer ??= setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.runs.current;
  }

  kick() {
    void this.deliverDue().catch((err) => this.log.error({ err }, 'webhook sender failed'));
  }

  /** Sends every due delivery; one run at a time (a call during a run makes it go round again). */
  deliverDue(): Promise<number> {
    return this.runs.run();
  }

  /** Sends a group at once, then records every outcome in one transaction. */
  private async deliver(group: ClaimedDelivery[]) {
    const attempts = await Promise.all(group.map((delivery) => this.attempt(delivery)));
    await this.run((context) =>
      recordAttempts(
        context,
        group.map((delivery, i) => ({ delivery, attempt: attempts[i]! })),
      ),
    );
  }

  private async attempt(delivery: ClaimedDelivery): Promise<Attempt> {
    let target: Awaited<ReturnType<typeof checkWebhookUrl>>;
    try {
      // Checked again at each delivery: a host may resolve elsewhere since its registration.
      target = await checkWebhookUrl(delivery.url, this.config.webhooks);
    } catch (error) {
      const message =
        error instanceof UnsafeWebhookUrl ? error.message : 'The URL could not be checked';
      return { status: null, durationMs: 0, error: message };
    }
    const body = JSON.stringify(delivery.payload);
    const headers = signedHeaders(this.config, delivery, body, this.now());
    return sendDelivery(target, body, headers, this.config.webhooks.ca);
  }
}
