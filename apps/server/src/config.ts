// All configuration comes from environment variables, parsed once here. Every variable has a default
// that works for the embedded single-machine setup; the README lists them.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_SIGN_SECRET } from '@genset/protocol';

/** The repository root: relative paths in configuration are taken from where `npm` was started. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** `<count>/<window>` (`20/1m`, `10/10m`, `5/1h`, `30/45s`), or `0`/`off`: a rate limit per client address. */
const rateLimit = (fallback: string) =>
  z
    .string()
    .regex(/^(0|off|\d+\/[1-9]\d*[smh])$/, 'a limit like 20/1m (count per window in s, m or h), or 0 for none')
    .default(fallback)
    .transform((v): RateLimit | null => {
      const m = /^(\d+)\/(\d+)([smh])$/.exec(v);
      if (!m || Number(m[1]) === 0) return null;
      const unit = { s: 1000, m: 60_000, h: 3_600_000 }[m[3] as 's' | 'm' | 'h'];
      return { max: Number(m[1]), windowMs: Number(m[2]) * unit };
    });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z.string().optional(),
  RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(24),
  DEMO: flag.default(true),
  API_SIGN_SECRET: z.string().min(8).default(DEFAULT_SIGN_SECRET),
  API_ENCRYPTION: z.enum(['none', 'aes']).default('none'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  SINGLE_SESSION: flag.default(false),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  AUTH_LOCK_MINUTES: z.coerce.number().positive().default(15),
  AUTH_IP_MAX_FAILURES: z.coerce.number().int().min(1).default(30),
  AUTH_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(100),
  SMS_CODE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  SMS_RESEND_SECONDS: z.coerce.number().int().positive().default(60),
  WEB_DIST: z.string().default('apps/web/dist'),
  PUBLIC_WS_URL: z.string().default(''),
  BAIDU_MAP_KEY: z.string().default(''),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'an address like smtps://user:password@mail.example.com:465')
    .optional(),
  SMTP_FROM: z.string().default('Genset Cloud <no-reply@localhost>'),
  DKIM_DOMAIN: z.string().default(''),
  DKIM_SELECTOR: z.string().default(''),
  DKIM_PRIVATE_KEY: z.string().default(''),
  /** The console's address as people reach it (links in e-mail and push notices; default: http://localhost:PORT). */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+$/, 'an address like https://console.example.com (no path)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMS_PROVIDER: z.enum(['outbox', 'twilio', 'aliyun']).default('outbox'),
  SMS_FALLBACK_PROVIDER: z
    .enum(['twilio', 'aliyun'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMS_PER_NUMBER_HOUR: z.coerce.number().int().min(1).max(1000).default(20),
  SMS_PER_TEMPLATE_MINUTE: z.coerce.number().int().min(1).max(100).default(3),
  TWILIO_ACCOUNT_SID: z.string().default(''),
  TWILIO_AUTH_TOKEN: z.string().default(''),
  TWILIO_FROM: z.string().default(''),
  TWILIO_MESSAGING_SERVICE_SID: z.string().default(''),
  TWILIO_URL: z.string().url().default('https://api.twilio.com'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().default(''),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().default(''),
  ALIYUN_SMS_SIGN_NAME: z.string().default(''),
  ALIYUN_SMS_CODE_TEMPLATE: z.string().default(''),
  ALIYUN_SMS_NOTICE_TEMPLATE: z.string().default(''),
  ALIYUN_SMS_URL: z.string().url().default('https://dysmsapi.aliyuncs.com'),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  CAMERA_ALLOW_PRIVATE: flag.default(false),
  FRAME_ANCESTORS: z
    .string()
    .trim()
    .regex(
      /^(\*|'self'|'none'|https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d+)?)(\s+(\*|'self'|https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d+)?))*$/,
      "'self', 'none', * or origins such as https://portal.example.com, separated by spaces",
    )
    .default("'self'"),
  TRUST_PROXY: flag.default(false),
  BODY_LIMIT_KB: z.coerce.number().int().min(16).max(102_400).default(1024),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().default('0.0.0.0'),
  MQTT_URL: z.string().url().optional(),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('console'),
  MQTT_AUTH_TOKEN: z.string().min(16).optional(),
  METRICS_TOKEN: z.string().min(16).optional(),
  REDIS_URL: z.string().url().optional(),
  REDIS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('console'),
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional(),
  ONLINE_RATE_MS: z.coerce.number().int().min(200).default(2000),
  OFFLINE_RATE_MS: z.coerce.number().int().min(1000).default(60000),
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(500).default(15000),
  /** How often the server checks its database, broker and Redis for the open consoles. */
  HEALTH_WATCH_MS: z.coerce.number().int().min(500).default(3000),
  /** Most sets with a position the home map shows one by one; a larger fleet is shown by area. */
  HOME_MAP_SETS: z.coerce.number().int().min(1).max(20_000).default(2000),
  /** Address the modules download firmware from (default: this server's own listening address). */
  OTA_PUBLIC_URL: z.string().default(''),
  OTA_TICK_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
  OTA_STALL_MS: z.coerce.number().int().min(1000).default(180_000),
  INGEST_PERSIST_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  INGEST_QUEUE_LIMIT: z.coerce.number().int().min(10).max(1_000_000).default(5000),
  INGEST_GAP_WAIT_MS: z.coerce.number().int().min(100).max(3_600_000).default(180_000),
  INGEST_SET_CACHE: z.coerce.number().int().min(10).max(10_000_000).default(50_000),
  INGEST_SET_IDLE_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  DEMO_FLEET: flag.optional(),
  DEMO_BACKFILL_DAYS: z.coerce.number().int().min(0).max(90).default(30),
  DEMO_STATION_BACKFILL_DAYS: z.coerce.number().int().min(0).max(366).default(60),
  WEATHER_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  WEATHER_KEY: z.string().default(''),
  WEATHER_CACHE_MINUTES: z.coerce.number().min(0).max(1440).default(10),
  REPORT_FONTS: z.string().default(''),
  RATE_LIMIT_API: rateLimit('600/1m'),
  RATE_LIMIT_SIGN_IN: rateLimit('20/1m'),
  RATE_LIMIT_CODES: rateLimit('10/10m'),
  RATE_LIMIT_REGISTER: rateLimit('10/1h'),
  RATE_LIMIT_PASSWORD_RESET: rateLimit('10/1h'),
  FFMPEG_PATH: z.string().optional(),
  VIDEO_SECRET: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.input<typeof envSchema>;

/** At most `max` calls per `windowMs` from one client address. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** PostgreSQL: whole months of time-series data kept before the current one (0: everything). */
  retentionMonths: number;
  demo: boolean;
  signSecret: string;
  encryption: 'none' | 'aes';
  sessionTtlMs: number;
  /** How long a session read for one call answers for the next ones (0: read it for every call). */
  sessionCacheMs: number;
  singleSession: boolean;
  /** Failed sign-ins of one account from one address tolerated; the next one locks that account at that address. */
  authMaxFailures: number;
  authLockMs: number;
  authIpMaxFailures: number;
  /**
   * Failed sign-ins of one account from all addresses tolerated; the next one locks the account for addresses it
   * has never signed in from (those it has signed in from before still may).
   */
  authAccountMaxFailures: number;
  smsCodeTtlMs: number;
  smsResendMs: number;
  webDist: string;
  uploadsDir: string;
  outboxDir: string;
  publicWsUrl: string;
  baiduMapKey: string;
  /** Notification e-mail goes out through this SMTP server; without one it is written to the outbox. */
  smtpUrl?: string;
  smtpFrom: string;
  /** DKIM signature of outgoing e-mail, when a key is configured. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** The console's address as people reach it: links in e-mail and push notices. */
  publicUrl: string;
  /** SMS: the provider, a second one taken when the first is down, their accounts and the per-number limits. */
  sms: SmsConfig;
  /** Webhooks may post to private and loopback addresses (never to this server itself). */
  webhookAllowPrivate: boolean;
  /** Cameras may be on private and loopback addresses (a camera on the server's own network); never this server. */
  cameraAllowPrivate: boolean;
  /** Who may show the console in a frame (iframe=1): CSP frame-ancestors sources. */
  frameAncestors: string[];
  trustProxy: boolean;
  /** Largest request body taken, in bytes (JSON calls, protocol imports). */
  bodyLimitBytes: number;
  /** How long a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number;
  logLevel: string;
  mqttPort: number;
  /** An external broker: the server is its client (several instances share its traffic). */
  mqttUrl?: string;
  mqttUsername?: string;
  mqttPassword?: string;
  mqttShareGroup: string;
  /** Bearer token of `POST /mqtt/auth`, EMQX's HTTP authentication of modules (off when not set). */
  mqttAuthToken?: string;
  /** Bearer token of `GET /metrics` (Prometheus); the endpoint is off without it. */
  metricsToken?: string;
  /** Redis for the realtime bus, cluster membership and command replies across instances. */
  redisUrl?: string;
  redisNamespace: string;
  /** This instance's name among several (random when not set). */
  instanceId?: string;
  mqttHost: string;
  onlineRateMs: number;
  offlineRateMs: number;
  commandTimeoutMs: number;
  healthWatchMs: number;
  /** Most sets with a position the home map shows one by one (HOME_MAP_SETS). */
  homeMapSets: number;
  /** Firmware upgrades: the modules' download address, the dispatcher's period, how long a download may stall. */
  ota: { publicUrl: string; tickMs: number; stallMs: number };
  ingestPersistMs: number;
  ingestQueueLimit: number;
  /** How long a hole in a module's seqs is waited for before its later data is acked past it. */
  ingestGapWaitMs: number;
  /** Sets whose live state ingestion holds at most, and how long one not heard from is kept. */
  ingestSetCache: { max: number; idleMs: number };
  demoFleet: boolean;
  /** Days of past the demo sets are given on a fresh start (0: none; they start with no history). */
  demoBackfillDays: number;
  /** Days of past a fresh demo storage station is given (0: none). */
  demoStationBackfillDays: number;
  /** Current-weather endpoint of an OpenWeatherMap-compatible service (weather off when not set). */
  weatherUrl?: string;
  weatherKey: string;
  /** How long a place's weather answers again before the service is asked anew. */
  weatherCacheMs: number;
  /** Font files tried first for PDF reports (before the packaged and the system fonts). */
  reportFonts: string[];
  /** Per client address and route; null: no limit. */
  rateLimits: {
    /** Every /yewu call without a stricter limit below. */
    api: RateLimit | null;
    signIn: RateLimit | null;
    codes: RateLimit | null;
    register: RateLimit | null;
    passwordReset: RateLimit | null;
  };
  /** ffmpeg named explicitly (else PATH and the usual places); camera video needs it. */
  ffmpegPath?: string;
  /** Secret the camera sign-ins are encrypted with (else a key file under DATA_DIR, made once). */
  videoSecret?: string;
}

export type SmsProviderName = 'twilio' | 'aliyun';

export interface SmsConfig {
  /** `outbox`: no provider; messages are written to DATA_DIR/outbox and the log (the embedded default). */
  provider: 'outbox' | SmsProviderName;
  fallback?: SmsProviderName;
  perNumberHour: number;
  perTemplateMinute: number;
  twilio: { accountSid: string; authToken: string; from: string; messagingServiceSid: string; url: string };
  aliyun: {
    accessKeyId: string;
    accessKeySecret: string;
    signName: string;
    codeTemplate: string;
    noticeTemplate: string;
    url: string;
  };
}

/** The variables an SMS provider chosen (first or second) needs and that are not set. */
function smsKeysMissing(e: z.infer<typeof envSchema>): string[] {
  const needs: Record<SmsProviderName, (keyof typeof e)[]> = {
    twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'],
    aliyun: [
      'ALIYUN_SMS_ACCESS_KEY_ID',
      'ALIYUN_SMS_ACCESS_KEY_SECRET',
      'ALIYUN_SMS_SIGN_NAME',
      'ALIYUN_SMS_CODE_TEMPLATE',
    ],
  };
  const chosen = [e.SMS_PROVIDER, e.SMS_FALLBACK_PROVIDER].filter((p): p is SmsProviderName => !!p && p !== 'outbox');
  const missing = chosen.flatMap((p) => needs[p].filter((k) => !e[k]));
  if (chosen.includes('twilio') && !e.TWILIO_FROM && !e.TWILIO_MESSAGING_SERVICE_SID) missing.push('TWILIO_FROM');
  return [...new Set(missing)];
}

function absolute(path: string, base: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

/** Parses the environment (or a test's overrides) into the configuration; throws naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const missing = smsKeysMissing(e);
  if (missing.length) {
    throw new Error(`Invalid configuration:\n${missing.map((m) => `  ${m}: required by the SMS provider`).join('\n')}`);
  }
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = absolute(e.DATA_DIR, base);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? resolve(dataDir, 'console.db'),
    retentionMonths: e.RETENTION_MONTHS,
    demo: e.DEMO,
    signSecret: e.API_SIGN_SECRET,
    encryption: e.API_ENCRYPTION,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    sessionCacheMs: e.SESSION_CACHE_MS,
    singleSession: e.SINGLE_SESSION,
    authMaxFailures: e.AUTH_MAX_FAILURES,
    authLockMs: e.AUTH_LOCK_MINUTES * 60_000,
    authIpMaxFailures: e.AUTH_IP_MAX_FAILURES,
    authAccountMaxFailures: e.AUTH_ACCOUNT_MAX_FAILURES,
    smsCodeTtlMs: e.SMS_CODE_TTL_SECONDS * 1000,
    smsResendMs: e.SMS_RESEND_SECONDS * 1000,
    webDist: absolute(e.WEB_DIST, REPO_ROOT),
    uploadsDir: resolve(dataDir, 'uploads'),
    outboxDir: resolve(dataDir, 'outbox'),
    publicWsUrl: e.PUBLIC_WS_URL,
    baiduMapKey: e.BAIDU_MAP_KEY,
    ...(e.SMTP_URL ? { smtpUrl: e.SMTP_URL } : {}),
    smtpFrom: e.SMTP_FROM,
    ...(e.DKIM_DOMAIN && e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY
      ? {
          dkim: {
            domainName: e.DKIM_DOMAIN,
            keySelector: e.DKIM_SELECTOR,
            // a key given on one line keeps its line breaks as \n
            privateKey: e.DKIM_PRIVATE_KEY.replace(/\\n/g, '\n'),
          },
        }
      : {}),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    sms: {
      provider: e.SMS_PROVIDER,
      ...(e.SMS_FALLBACK_PROVIDER && e.SMS_FALLBACK_PROVIDER !== e.SMS_PROVIDER
        ? { fallback: e.SMS_FALLBACK_PROVIDER }
        : {}),
      perNumberHour: e.SMS_PER_NUMBER_HOUR,
      perTemplateMinute: e.SMS_PER_TEMPLATE_MINUTE,
      twilio: {
        accountSid: e.TWILIO_ACCOUNT_SID,
        authToken: e.TWILIO_AUTH_TOKEN,
        from: e.TWILIO_FROM,
        messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID,
        url: e.TWILIO_URL.replace(/\/$/, ''),
      },
      aliyun: {
        accessKeyId: e.ALIYUN_SMS_ACCESS_KEY_ID,
        accessKeySecret: e.ALIYUN_SMS_ACCESS_KEY_SECRET,
        signName: e.ALIYUN_SMS_SIGN_NAME,
        codeTemplate: e.ALIYUN_SMS_CODE_TEMPLATE,
        noticeTemplate: e.ALIYUN_SMS_NOTICE_TEMPLATE,
        url: e.ALIYUN_SMS_URL.replace(/\/$/, ''),
      },
    },
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    cameraAllowPrivate: e.CAMERA_ALLOW_PRIVATE,
    frameAncestors: e.FRAME_ANCESTORS.split(/\s+/),
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    mqttPort: e.MQTT_PORT,
    ...(e.MQTT_URL ? { mqttUrl: e.MQTT_URL } : {}),
    ...(e.MQTT_USERNAME ? { mqttUsername: e.MQTT_USERNAME } : {}),
    ...(e.MQTT_PASSWORD ? { mqttPassword: e.MQTT_PASSWORD } : {}),
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    ...(e.MQTT_AUTH_TOKEN ? { mqttAuthToken: e.MQTT_AUTH_TOKEN } : {}),
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    redisNamespace: e.REDIS_NAMESPACE,
    ...(e.INSTANCE_ID ? { instanceId: e.INSTANCE_ID } : {}),
    mqttHost: e.MQTT_HOST,
    onlineRateMs: e.ONLINE_RATE_MS,
    offlineRateMs: e.OFFLINE_RATE_MS,
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    healthWatchMs: e.HEALTH_WATCH_MS,
    homeMapSets: e.HOME_MAP_SETS,
    ota: { publicUrl: e.OTA_PUBLIC_URL, tickMs: e.OTA_TICK_MS, stallMs: e.OTA_STALL_MS },
    ingestPersistMs: e.INGEST_PERSIST_MS,
    ingestQueueLimit: e.INGEST_QUEUE_LIMIT,
    ingestGapWaitMs: e.INGEST_GAP_WAIT_MS,
    ingestSetCache: { max: e.INGEST_SET_CACHE, idleMs: e.INGEST_SET_IDLE_MS },
    demoFleet: e.DEMO_FLEET ?? e.DEMO,
    demoBackfillDays: e.DEMO_BACKFILL_DAYS,
    demoStationBackfillDays: e.DEMO_STATION_BACKFILL_DAYS,
    ...(e.WEATHER_URL ? { weatherUrl: e.WEATHER_URL } : {}),
    weatherKey: e.WEATHER_KEY,
    weatherCacheMs: e.WEATHER_CACHE_MINUTES * 60_000,
    reportFonts: e.REPORT_FONTS.split(',')
      .map((f) => f.trim())
      .filter(Boolean)
      .map((f) => absolute(f, base)),
    rateLimits: {
      api: e.RATE_LIMIT_API,
      signIn: e.RATE_LIMIT_SIGN_IN,
      codes: e.RATE_LIMIT_CODES,
      register: e.RATE_LIMIT_REGISTER,
      passwordReset: e.RATE_LIMIT_PASSWORD_RESET,
    },
    ...(e.FFMPEG_PATH ? { ffmpegPath: e.FFMPEG_PATH } : {}),
    ...(e.VIDEO_SECRET ? { videoSecret: e.VIDEO_SECRET } : {}),
  };
}
