import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { RAIL_ENV } from '../shared/disbursements';
import { DEFAULT_OFFER_EXPIRY_HOURS, DEFAULT_REVIEW_TARGET_MINUTES } from '../shared/fair-dealing';
import { type Keyring, keyringOf, newDataKeyText, parseDataKey } from './encryption';

/**
 * Where the USDT worker may be made to kill itself (decision 152): `after-sign` (signed and
 * stored, not committed), `before-broadcast` (committed, not sent), `after-broadcast` (sent,
 * nothing more done), `confirming` (mined, waiting for its confirmations).
 */
export const PAYOUT_FAULT_POINTS = [
  'after-sign',
  'before-broadcast',
  'after-broadcast',
  'confirming',
] as const;
export type PayoutFaultPoint = (typeof PAYOUT_FAULT_POINTS)[number];

/** Every variable the server reads (.env.example lists them all; a test checks). */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Connections to PostgreSQL per instance (the embedded database always has one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The AES-256 key secrets at rest are sealed with (docs/decisions/074): 64 hex characters, the
   * same on every instance. Unset outside production: generated into DATA_DIR/data-encryption-key.
   */
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseDataKey(v) !== null, '64 hex characters (32 random bytes)')
    .optional(),
  /** During a rotation: the keys values may still be sealed with, comma-separated. */
  DATA_ENCRYPTION_PREVIOUS_KEYS: z
    .string()
    .refine(
      (v) => v.split(',').every((k) => parseDataKey(k) !== null),
      'comma-separated keys of 64 hex characters',
    )
    .optional(),
  /** bcrypt work factor; the product promises 12, lower only for fast local test runs. */
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  /**
   * Behind a reverse proxy: how many proxies to trust (a hop count, 1 behind one proxy), or their
   * addresses (comma-separated IPs or CIDR ranges). Never "every hop": a client could then name
   * any address it likes in X-Forwarded-For.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): false | number | string[] => {
      const v = value.trim().toLowerCase();
      if (v === 'false' || v === '0' || v === '') return false;
      if (v === 'true') {
        ctx.addIssue({
          code: 'custom',
          message:
            'say how many proxies to trust (1 behind one reverse proxy) or list their addresses; true would trust any X-Forwarded-For a client sends',
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(v)) return Number(v);
      const list = v.split(',').map((a) => a.trim());
      if (list.every((a) => isIP(a.split('/')[0]!) !== 0)) return list;
      ctx.addIssue({
        code: 'custom',
        message: 'a hop count or a comma-separated list of addresses',
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** GET /metrics answers only with `Authorization: Bearer <this>`; unset, /metrics is a 404. */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  /** Rate limits (docs/decisions/021): counts per window, kept in the database. */
  LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
  LIMIT_SIGNIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  LIMIT_SIGNUPS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  LIMIT_CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LIMIT_TICKETS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** A customer's replies in their tickets' threads per hour (docs/decisions/050). */
  LIMIT_TICKET_REPLIES_PER_HOUR: z.coerce.number().int().min(1).default(30),
  LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).default(60),
  /** Wrong second-factor codes per staff account per 15 minutes (docs/decisions/037). */
  LIMIT_TWO_FACTOR_FAILURES: z.coerce.number().int().min(1).default(5),
  /** Password-reset and verification emails per account per hour. */
  LIMIT_ACCOUNT_EMAILS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Requests per API key per minute on /api/v1 (issue 42, decision 125). */
  LIMIT_API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * The public address of the site, used in the links emails carry (a reset link, a page to
   * open); http://localhost:PORT by default.
   */
  APP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /**
   * Where mail goes (docs/decisions/035): smtp://user:pass@host:587 (STARTTLS when offered) or
   * smtps://...:465. Unset: every message is written to DATA_DIR/outbox as an .eml file.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Cardbridge <no-reply@cardbridge.app>'),
  /** Staff changes within this many seconds reach a customer as one email. */
  NOTIFICATION_EMAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** A revised offer the customer has not answered in this long expires (decision 073). */
  OFFER_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(DEFAULT_OFFER_EXPIRY_HOURS),
  /** Staff's target from submission to a first decision; older pending cards are flagged. */
  REVIEW_TARGET_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10080)
    .default(DEFAULT_REVIEW_TARGET_MINUTES),
  /** A connection that sends nothing for this long is closed (a stalled upload). */
  REQUEST_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** A request must have arrived whole within this long (a 10 MB upload at a crawl). */
  REQUEST_BODY_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /**
   * S3-compatible object storage (docs/decisions/025): set S3_BUCKET to keep files there instead
   * of DATA_DIR/objects. Without the key pair, the SDK's own chain is used (AWS_* variables, an
   * instance role). S3_FORCE_PATH_STYLE for servers that do not serve bucket.host names (MinIO).
   */
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  /**
   * Webhooks (issue 42, decision 127): true lets endpoints on private, loopback and link-local
   * addresses, and http://, for tests and local development; refused with NODE_ENV=production.
   */
  WEBHOOK_ALLOW_PRIVATE: z.stringbool().default(false),
  /** A PEM file of extra certificate authorities webhook receivers may use (local development). */
  WEBHOOK_CA_FILE: z.string().optional(),
  /** Identity documents are deleted this many days after the decision (docs/decisions/072). */
  VERIFICATION_DOCUMENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Payouts to a method whose payee details are this new wait; 0 turns the hold off. */
  PAYOUT_HOLD_NEW_METHOD_HOURS: z.coerce.number().int().min(0).max(8760).default(24),
  /** A new account's payouts wait until it is this old; 0 turns the hold off. */
  PAYOUT_HOLD_NEW_ACCOUNT_HOURS: z.coerce.number().int().min(0).max(8760).default(48),
  /**
   * The ACH file rail for bank transfers (issue 40, decision 122): the sending bank, where the
   * file goes, and the company. All six, or none (bank transfers then stay manual).
   */
  ACH_ORIGIN_ROUTING: z
    .string()
    .regex(/^\d{9}$/, 'must be a 9-digit routing number')
    .optional(),
  ACH_ORIGIN_NAME: z.string().min(1).max(23).optional(),
  ACH_DESTINATION_ROUTING: z
    .string()
    .regex(/^\d{9}$/, 'must be a 9-digit routing number')
    .optional(),
  ACH_DESTINATION_NAME: z.string().min(1).max(23).optional(),
  ACH_COMPANY_NAME: z.string().min(1).max(16).optional(),
  ACH_COMPANY_ID: z
    .string()
    .regex(/^\w{1,10}$/, 'must be at most 10 letters or digits')
    .optional(),
  /**
   * The EVM token rail for usdt_bep20 (issue 40, decision 123): the node, the chain, the token,
   * the hot wallet's key. All of RPC URL, chain id, token address and key, or none.
   */
  PAYOUT_EVM_RPC_URL: z
    .url({ protocol: /^(https?|wss?)$/, error: 'must be an http(s):// or ws(s):// URL' })
    .optional(),
  PAYOUT_EVM_CHAIN_ID: z.coerce.number().int().min(1).optional(),
  PAYOUT_EVM_TOKEN_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex characters')
    .optional(),
  PAYOUT_EVM_TOKEN_DECIMALS: z.coerce.number().int().min(2).max(36).default(18),
  PAYOUT_EVM_PRIVATE_KEY: z.string().min(1).optional(),
  PAYOUT_EVM_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(12),
  PAYOUT_EVM_EXPLORER_TX_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://bscscan.com/tx/'),
  /**
   * A test hook (decision 152): the USDT worker kills its own process (SIGKILL) at this point of
   * a payout, so the fault tests can stop the built server exactly there. Inert unless set;
   * refused at start when NODE_ENV=production.
   */
  PAYOUT_FAULT_POINT: z.enum(PAYOUT_FAULT_POINTS).optional(),
  /** Card photos are deleted this many days after the card settles (completed or rejected). */
  RETAIN_CARD_IMAGES_DAYS: z.coerce.number().int().min(1).max(36500).default(180),
  /** Chat attachments are deleted this many days after they were sent. */
  RETAIN_CHAT_FILES_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  sessionSecret: string;
  /** The key new secrets are sealed with, and the older keys still read (decision 074). */
  encryption: Keyring;
  bcryptCost: number;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  logLevel: string;
  requestIdleSeconds: number;
  requestBodySeconds: number;
  metricsToken: string | undefined;
  /** Webhook deliveries (decision 127). */
  webhooks: {
    /** Private, loopback and link-local addresses, and http://, allowed (never in production). */
    allowPrivate: boolean;
    /** Certificate authorities to trust instead of the system's (tests, local development). */
    ca?: string;
  };
  limits: Limits;
  /** The site's public address, no trailing slash: links in emails start with it. */
  appUrl: string;
  mail: MailConfig;
  /** Revised offers and review times (decision 073). */
  fairDealing: FairDealingConfig;
  /** Where the built client lives; absent in API tests. */
  clientDir?: string;
  /** The bucket files live in; absent: local disk under DATA_DIR/objects. */
  s3?: S3Config;
  /** How long files are kept (issue 22, item 5; docs/operations.md lists every kind of data). */
  retention: { cardImagesDays: number; chatFilesDays: number };
  /** Verified sellers (docs/decisions/072). */
  verification: VerificationConfig;
  /** Payout rails (issue 40): each absent when its env is not given. */
  payouts: PayoutsConfig;
}

export interface AchConfig {
  originRouting: string;
  originName: string;
  destinationRouting: string;
  destinationName: string;
  companyName: string;
  companyId: string;
}

export interface EvmConfig {
  rpcUrl: string;
  chainId: number;
  tokenAddress: `0x${string}`;
  tokenDecimals: number;
  /** The hot wallet's key, 0x and 64 hex characters. */
  privateKey: `0x${string}`;
  confirmations: number;
}

export interface PayoutsConfig {
  ach: AchConfig | undefined;
  evm: EvmConfig | undefined;
  /** Where a transaction hash is shown: the hash is appended. */
  explorerTxUrl: string;
  /** The test hook's point (decision 152); never set in production. */
  faultPoint?: PayoutFaultPoint;
}

export interface VerificationConfig {
  /** Days after a decision that its identity documents are kept. */
  documentRetentionDays: number;
  /** Hours a payout to a new or changed payee waits; 0: no hold. */
  payoutHoldNewMethodHours: number;
  /** Hours old an account must be before it is paid; 0: no hold. */
  payoutHoldNewAccountHours: number;
}

export interface S3Config {
  bucket: string;
  /** An S3-compatible server's URL; absent: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** Absent: the AWS SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

export interface MailConfig {
  /** Unset: messages are written to DATA_DIR/outbox instead of being sent. */
  smtpUrl: string | undefined;
  from: string;
  /** How long a customer's notifications gather before they go out as one email. */
  notificationDelayMs: number;
}

export interface FairDealingConfig {
  /** How long a revised offer waits for the customer's answer. */
  offerExpiryHours: number;
  /** Staff's target time from submission to a first decision. */
  reviewTargetMinutes: number;
}

/** How much one account or address may do per window (windows: see docs/decisions/021). */
export interface Limits {
  /** Wrong passwords per account per hour, from any number of addresses. */
  signinFailuresPerAccount: number;
  /** Wrong passwords per address per 15 minutes. */
  signinFailuresPerAddress: number;
  /** Sign-ups (and existing-email probes) per address per hour. */
  signupsPerAddress: number;
  chatMessagesPerMinute: number;
  ticketsPerHour: number;
  /** A customer's replies in their tickets' threads per hour. */
  ticketRepliesPerHour: number;
  /** Card images and chat attachments per customer per hour. */
  uploadsPerHour: number;
  /** Wrong second-factor codes per staff account per 15 minutes. */
  twoFactorFailures: number;
  /** Password-reset and verification emails per account per hour. */
  accountEmailsPerHour: number;
  /** Requests per API key per minute on /api/v1. */
  apiKeyRequestsPerMinute: number;
}

export class ConfigError extends Error {}

/** Reads the environment once; a bad value throws a ConfigError with a one-line reason. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty variable counts as unset (`DATABASE_URL= npm start` means the embedded database).
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError('Invalid SESSION_SECRET: required when NODE_ENV=production');
  }
  if (e.NODE_ENV === 'production' && !e.DATA_ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid DATA_ENCRYPTION_KEY: required when NODE_ENV=production (generate one with: openssl rand -hex 32)',
    );
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_PRIVATE) {
    throw new ConfigError(
      'Invalid WEBHOOK_ALLOW_PRIVATE: webhooks to private addresses are for tests and local development, never NODE_ENV=production',
    );
  }
  if (e.NODE_ENV === 'production' && e.PAYOUT_FAULT_POINT) {
    throw new ConfigError(
      'Invalid PAYOUT_FAULT_POINT: a test hook that kills the server, never NODE_ENV=production',
    );
  }
  if (e.NODE_ENV === 'production' && e.BCRYPT_COST < 12) {
    throw new ConfigError('Invalid BCRYPT_COST: must be at least 12 when NODE_ENV=production');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    sessionSecret: e.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    encryption: keyringFrom(e, dataDir),
    bcryptCost: e.BCRYPT_COST,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    requestIdleSeconds: e.REQUEST_IDLE_SECONDS,
    requestBodySeconds: e.REQUEST_BODY_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      ca: e.WEBHOOK_CA_FILE ? readFileSync(e.WEBHOOK_CA_FILE, 'utf8') : undefined,
    },
    limits: {
      signinFailuresPerAccount: e.LIMIT_SIGNIN_FAILURES_PER_ACCOUNT,
      signinFailuresPerAddress: e.LIMIT_SIGNIN_FAILURES_PER_ADDRESS,
      signupsPerAddress: e.LIMIT_SIGNUPS_PER_ADDRESS,
      chatMessagesPerMinute: e.LIMIT_CHAT_MESSAGES_PER_MINUTE,
      ticketsPerHour: e.LIMIT_TICKETS_PER_HOUR,
      ticketRepliesPerHour: e.LIMIT_TICKET_REPLIES_PER_HOUR,
      uploadsPerHour: e.LIMIT_UPLOADS_PER_HOUR,
      twoFactorFailures: e.LIMIT_TWO_FACTOR_FAILURES,
      accountEmailsPerHour: e.LIMIT_ACCOUNT_EMAILS_PER_HOUR,
      apiKeyRequestsPerMinute: e.LIMIT_API_KEY_REQUESTS_PER_MINUTE,
    },
    appUrl: e.APP_URL ?? `http://localhost:${e.PORT}`,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      notificationDelayMs: e.NOTIFICATION_EMAIL_DELAY_SECONDS * 1000,
    },
    fairDealing: {
      offerExpiryHours: e.OFFER_EXPIRY_HOURS,
      reviewTargetMinutes: e.REVIEW_TARGET_MINUTES,
    },
    s3: s3ConfigOf(e),
    retention: {
      cardImagesDays: e.RETAIN_CARD_IMAGES_DAYS,
      chatFilesDays: e.RETAIN_CHAT_FILES_DAYS,
    },
    verification: {
      documentRetentionDays: e.VERIFICATION_DOCUMENT_RETENTION_DAYS,
      payoutHoldNewMethodHours: e.PAYOUT_HOLD_NEW_METHOD_HOURS,
      payoutHoldNewAccountHours: e.PAYOUT_HOLD_NEW_ACCOUNT_HOURS,
    },
    payouts: {
      ach: achConfigOf(e),
      evm: evmConfigOf(e),
      explorerTxUrl: e.PAYOUT_EVM_EXPLORER_TX_URL,
      faultPoint: e.PAYOUT_FAULT_POINT,
    },
  };
}

/** All of a group of variables or none: the first missing one is named. */
function allOrNone(e: Record<string, unknown>, names: string[], what: string) {
  const given = names.filter((n) => e[n] !== undefined);
  if (given.length === 0) return false;
  const missing = names.find((n) => e[n] === undefined);
  if (missing) {
    throw new ConfigError(
      `Invalid ${missing}: required when ${given[0]} is set (${what} needs all of ${names.join(', ')})`,
    );
  }
  return true;
}

function achConfigOf(e: z.infer<typeof envSchema>): AchConfig | undefined {
  if (!allOrNone(e, RAIL_ENV.ach_file, 'the ACH file rail')) return undefined;
  return {
    originRouting: e.ACH_ORIGIN_ROUTING!,
    originName: e.ACH_ORIGIN_NAME!,
    destinationRouting: e.ACH_DESTINATION_ROUTING!,
    destinationName: e.ACH_DESTINATION_NAME!,
    companyName: e.ACH_COMPANY_NAME!,
    companyId: e.ACH_COMPANY_ID!,
  };
}

/** A hot wallet key: 64 hex characters, 0x optional. */
export const EVM_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

function evmConfigOf(e: z.infer<typeof envSchema>): EvmConfig | undefined {
  if (!allOrNone(e, RAIL_ENV.evm_token, 'the USDT rail')) return undefined;
  const key = e.PAYOUT_EVM_PRIVATE_KEY!.trim();
  if (!EVM_KEY.test(key)) {
    // Refused at start in production; elsewhere the rail is simply not configured.
    if (e.NODE_ENV === 'production') {
      throw new ConfigError('Invalid PAYOUT_EVM_PRIVATE_KEY: must be 64 hex characters');
    }
    return undefined;
  }
  return {
    rpcUrl: e.PAYOUT_EVM_RPC_URL!,
    chainId: e.PAYOUT_EVM_CHAIN_ID!,
    tokenAddress: e.PAYOUT_EVM_TOKEN_ADDRESS! as `0x${string}`,
    tokenDecimals: e.PAYOUT_EVM_TOKEN_DECIMALS,
    privateKey: (key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`,
    confirmations: e.PAYOUT_EVM_CONFIRMATIONS,
  };
}

/** The bucket settings, or undefined for local disk; a half-given setting is refused. */
function s3ConfigOf(e: z.infer<typeof envSchema>): S3Config | undefined {
  if (!e.S3_BUCKET) {
    if (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        'Invalid S3_BUCKET: required when other S3_ variables are set (without it files stay on local disk)',
      );
    }
    return undefined;
  }
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError(
      `Invalid ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together`,
    );
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** Outside production the session secret is generated on first start and kept in DATA_DIR. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Where the generated data key lives outside production: the current key first, older below. */
export const dataKeyFile = (dataDir: string) => path.join(dataDir, 'data-encryption-key');

/**
 * The data keys: DATA_ENCRYPTION_KEY (and DATA_ENCRYPTION_PREVIOUS_KEYS) when set; otherwise the
 * file in DATA_DIR, made on the first start like the session secret.
 */
function keyringFrom(e: z.infer<typeof envSchema>, dataDir: string): Keyring {
  const previous = (e.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '')
    .split(',')
    .filter((k) => k.trim())
    .map((k) => parseDataKey(k)!);
  if (e.DATA_ENCRYPTION_KEY) return keyringOf(parseDataKey(e.DATA_ENCRYPTION_KEY)!, previous);
  const [current, ...older] = readOrCreateDataKeys(dataDir);
  return keyringOf(current!, [...older, ...previous]);
}

function readOrCreateDataKeys(dataDir: string) {
  const file = dataKeyFile(dataDir);
  try {
    const keys = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => parseDataKey(line));
    if (keys.length > 0 && keys.every((k) => k !== null))
      return keys as NonNullable<(typeof keys)[number]>[];
    throw new ConfigError(`Invalid ${file}: one key of 64 hex characters per line`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const text = newDataKeyText();
  // 'wx': two processes starting at once on one DATA_DIR keep the first one's key.
  try {
    writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readOrCreateDataKeys(dataDir);
  }
  return [parseDataKey(text)!];
}
