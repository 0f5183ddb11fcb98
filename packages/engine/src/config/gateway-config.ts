import { DEFAULT_ALERT_DELIVERY_RETENTION_DAYS, DEFAULT_USAGE_RETENTION_DAYS, keyLimitsSchema } from '@signalbox/accounts';
import { DEFAULT_UPSTREAM_CONNECTIONS, DEFAULT_UPSTREAM_QUEUE_TIMEOUT_MS } from '@signalbox/upstream';
import { z } from 'zod';
import { refusedHeaderPattern } from '../generation/client-header-patterns';
import { applyProviderPreset } from './providers/apply-provider-preset';
import { cloudPlaceName } from './providers/cloud-place-name';
import { checkTargetPricing } from '../pricing/check-target-pricing';
import { modelPricingSchema, type ModelPricing } from '../pricing/model-pricing';
import { circuitBreakerConfigSchema, credentialConfigSchema, DEFAULT_CIRCUIT_BREAKER, environmentVariableName } from './credential-config';
import { alertDeliveriesConfigSchema, auditConfigSchema, usageConfigSchema } from './retention-config';

export type { UsageConfig } from './retention-config';

const positiveMilliseconds = z.number().int().positive();

export const upstreamConfigSchema = z
  .object({
    /** A provider by name (`openrouter`, `ollama`, …): its preset fills every key below the upstream leaves out. */
    provider: z.string().min(1).optional(),
    /** The protocol the upstream speaks: a codec's `protocol` (checked against the codecs at start). */
    protocol: z.string().min(1).optional(),
    /**
     * Where the protocol is served: an upstream kind's name (`azure-openai`), which owns the calls'
     * URL, auth and framing. Absent: the protocol's own API with a key (checked against the kinds at start).
     */
    kind: z.string().min(1).optional(),
    /** The kind's auth settings (`{ "type": "entra", … }`), checked by the kind at start; names of variables and files, never secrets. */
    auth: z.record(z.string(), z.unknown()).optional(),
    /** Where a cloud provider's service is, for the base URL its preset makes: the Azure OpenAI resource's name (`azure-openai`). */
    resource: cloudPlaceName.optional(),
    /** The AWS region (`bedrock`, also the region signed for) or the Google Cloud location, `global` among them (`vertex`). */
    region: cloudPlaceName.optional(),
    /** The Google Cloud project ID (`vertex`). */
    project: cloudPlaceName.optional(),
    /** The base URL the vendor's SDK takes: `…/v1` for OpenAI protocols, the origin for Anthropic. */
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    /** Departures from the protocol the codec makes for this upstream, by the codec's names (checked at start). */
    quirks: z.array(z.string().min(1)).optional(),
    /** Name of the environment variable holding the upstream key (never the key itself): a pool of one. */
    apiKeyEnv: environmentVariableName.optional(),
    /** Several keys for one upstream, used by weight and load while healthy (instead of `apiKeyEnv`). */
    credentials: z.array(credentialConfigSchema).min(1).max(64).optional(),
    headers: z.record(z.string(), z.string()).default({}),
    /** The version header value sent upstream, for protocols that have one (Messages: `anthropic-version`). */
    apiVersion: z.string().min(1).optional(),
    timeoutMs: positiveMilliseconds.default(60_000),
    idleTimeoutMs: positiveMilliseconds.default(120_000),
    connectTimeoutMs: positiveMilliseconds.default(10_000),
    /** Requests in flight to this upstream at once (one HTTP/1.1 keep-alive connection each). */
    connections: z.number().int().positive().default(DEFAULT_UPSTREAM_CONNECTIONS),
    /** Longest wait for a connection once all are busy, then 503 `UPSTREAM_OVERLOADED`; 0 refuses at once. */
    queueTimeoutMs: z.number().int().nonnegative().default(DEFAULT_UPSTREAM_QUEUE_TIMEOUT_MS),
    /** When repeated server errors or connection failures stop a credential, or the whole upstream, being tried. */
    circuitBreaker: circuitBreakerConfigSchema.default(DEFAULT_CIRCUIT_BREAKER),
  })
  .strict()
  .transform(applyProviderPreset);

export const routeConfigSchema = z
  .object({
    /** The exact model ID clients send. */
    model: z.string().min(1).max(200),
    description: z.string().optional(),
    /** Client interfaces by name (`responses`, `messages`, `chat`; checked against the codecs at start). */
    interfaces: z.array(z.string().min(1)).min(1),
    /** Ordered targets: the first serves, the next ones take over on a retryable failure. */
    targets: z
      .array(z.object({ upstream: z.string().min(1), model: z.string().min(1) }).strict())
      .min(1)
      .max(3),
    /** The route's context window, for the 413 token estimate. */
    contextTokens: z.number().int().positive().optional(),
    /**
     * Prices in currency units per million tokens (cache reads, 5-minute and 1-hour cache writes each
     * their own, an absent one the input price), or `catalog`: the price catalog's for the targets' models.
     */
    pricing: z.union([modelPricingSchema, z.literal('catalog')]).optional(),
    /**
     * Each target model's own prices, by the target's `model`: a request is charged at the prices of
     * the model that served it, and held at `pricing` (at least each of them). Filled from the
     * catalog for `pricing: catalog`.
     */
    targetPricing: z.record(z.string().min(1), modelPricingSchema).optional(),
    /** Replay failures that may have reached the model (timeouts, 5xx): duplicates and charges possible. */
    replayAmbiguousFailures: z.boolean().default(false),
    /** Groups whose keys may use the route; absent means every group. */
    groups: z.array(z.string().min(1)).min(1).optional(),
    /** The output cap a priced request gets (and is held for) when it sets no limit, or one the balance does not cover. */
    reserveOutputTokens: z.number().int().positive().default(4096),
    /**
     * The longest a request may run, from its arrival: before its answer begins it then fails with 504
     * `UPSTREAM_TIMEOUT`, after that its stream ends with the protocol's terminal error event.
     */
    deadlineMs: positiveMilliseconds.default(600_000),
    /**
     * `auto`: requests to a Messages upstream that carry no cache breakpoint of the client's get the
     * gateway's own (Responses and Chat clients have no way to mark one). `off`, the default: requests
     * go as the client marked them.
     */
    promptCache: z.enum(['off', 'auto']).optional(),
    /** Overrides the top-level `sessionAffinity.enabled` for this route. */
    sessionAffinity: z.boolean().optional(),
    /**
     * `false`: not served over Responses' WebSocket mode; a `response.create` naming the route gets
     * the 426 `WEBSOCKET_NOT_SUPPORTED` error frame, on which Codex goes on over HTTP. Default: served.
     */
    webSocket: z.boolean().optional(),
  })
  .strict();

const interfaceAuthSchema = z
  .object({
    /** Version header values accepted from clients (Messages: `anthropic-version`). Default: the codec's. */
    acceptedVersions: z.array(z.string().min(1)).min(1).optional(),
    /** Accept `Authorization: Bearer` where the protocol's own key header is expected (@anthropic-ai/sdk 1.x sends it). */
    acceptBearer: z.boolean().default(false),
  })
  .strict();

export type InterfaceAuth = z.output<typeof interfaceAuthSchema>;

/**
 * The default bound on the stored state one request may be expanded with: 32 MiB, the largest request
 * Anthropic's Messages API takes, so a conversation an upstream can still be sent whole fits, while a
 * small request naming large items many times cannot grow past it.
 * @see https://docs.anthropic.com/en/api/overview (request size limits)
 */
export const DEFAULT_MAX_EXPANSION_BYTES = 32 * 1024 * 1024;

/** How long stored responses live and how much an account keeps (`store: true` Responses requests). */
export const responseStoreConfigSchema = z
  .object({
    /** Seconds a stored response can be read and continued; then it is gone as if deleted. */
    ttlSeconds: z.number().int().positive().default(30 * 24 * 60 * 60),
    /** Bytes of stored JSON per account; past it, the account's oldest responses are dropped first. */
    maxBytesPerAccount: z.number().int().positive().default(64 * 1024 * 1024),
    /** Most responses one `previous_response_id` chain may span (413 past it). */
    maxChainResponses: z.number().int().positive().default(1_000),
    /**
     * Most bytes of stored JSON one request may be expanded with: every response of its
     * `previous_response_id` chain, each `item_reference` as often as it appears, and each opened
     * compaction item; past it the request is a 413 before anything is built or sent upstream.
     */
    maxExpansionBytes: z.number().int().positive().default(DEFAULT_MAX_EXPANSION_BYTES),
  })
  .strict();

export type ResponseStoreConfig = z.output<typeof responseStoreConfigSchema>;

/** The default idle expiry of a conversation's pinned credential: an hour, the longest prompt cache lifetime (Anthropic's 1-hour cache). */
export const DEFAULT_AFFINITY_IDLE_TIMEOUT_MS = 3_600_000;

/** The default number of conversations one engine remembers in memory. */
export const DEFAULT_MAX_CONVERSATIONS = 100_000;

/**
 * Session affinity: a conversation keeps the credential (and target) that served it while that
 * stays usable, so its prompt cache keeps serving it.
 */
export const sessionAffinityConfigSchema = z
  .object({
    /** Default true; a route's own `sessionAffinity` overrides it. */
    enabled: z.boolean().default(true),
    /** How long a conversation keeps its credential after its last request, in ms. */
    idleTimeoutMs: positiveMilliseconds.default(DEFAULT_AFFINITY_IDLE_TIMEOUT_MS),
    /** The most conversations remembered in memory (the least recently used go first); a shared store keeps its own. */
    maxConversations: z.number().int().positive().default(DEFAULT_MAX_CONVERSATIONS),
  })
  .strict();

export type SessionAffinityConfig = z.output<typeof sessionAffinityConfigSchema>;

export const gatewayConfigSchema = z
  .object({
    upstreams: z.record(z.string().min(1), upstreamConfigSchema),
    routes: z.array(routeConfigSchema).min(1),
    /** Client authentication per interface name: accepted version values, Bearer on a header-key interface. */
    interfaceAuth: z.record(z.string().min(1), interfaceAuthSchema).default({}),
    /** Shorthand for `interfaceAuth.messages`. */
    messages: interfaceAuthSchema.optional(),
    /** Limits for keys that set none of their own (a key's own limits override these, member by member). */
    limits: z.object({ default: keyLimitsSchema.default({}) }).strict().default({ default: {} }),
    /** Largest accepted request body, in bytes. */
    bodyLimitBytes: z.number().int().positive().default(4 * 1024 * 1024),
    /** Longest a request body may take to arrive in full once the gateway starts reading it, in ms (then 408). */
    bodyTimeoutMs: z.number().int().positive().default(60_000),
    /**
     * Client headers passed on as sent to upstreams of the client's own protocol (`x-codex-*`, a
     * name or a prefix ending `*`); never credentials or transport headers, which are refused here
     * (and the codecs' own when the gateway starts: `checkConfigProtocols`).
     */
    forwardClientHeaders: z
      .array(
        z
          .string()
          .transform(pattern => pattern.toLowerCase())
          .superRefine((pattern, context) => {
            const reason = refusedHeaderPattern(pattern);
            if (reason !== undefined) context.addIssue({ code: 'custom', message: `'${pattern}' ${reason}` });
          }),
      )
      .default([]),
    /** The longest silence a stream goes without a keep-alive comment, in ms (0 turns keep-alives off). */
    keepAliveMs: z.number().int().nonnegative().default(15_000),
    /** Responses' WebSocket mode (`gateway.attachUpgrade(server)`): how many connections, and how long each lives. */
    webSocket: z
      .object({
        /** Open WebSocket connections in all; the next is closed with code 1013. */
        maxSockets: z.number().int().positive().default(10_000),
        /** Open WebSocket connections per key; the next is closed with code 1013. */
        maxSocketsPerKey: z.number().int().positive().default(64),
        /** How long one connection lives, in ms (OpenAI's limit: 60 minutes); then `websocket_connection_limit_reached`. */
        connectionLimitMs: z.number().int().positive().default(60 * 60 * 1000),
      })
      .strict()
      .default({ maxSockets: 10_000, maxSocketsPerKey: 64, connectionLimitMs: 60 * 60 * 1000 }),
    /** Retention of the responses kept for `previous_response_id`, `item_reference` and `GET /v1/responses/{id}`. */
    responseStore: responseStoreConfigSchema.default({
      ttlSeconds: 30 * 24 * 60 * 60,
      maxBytesPerAccount: 64 * 1024 * 1024,
      maxChainResponses: 1_000,
      maxExpansionBytes: DEFAULT_MAX_EXPANSION_BYTES,
    }),
    /** The usage ledger's retention. */
    usage: usageConfigSchema.default({ retentionDays: DEFAULT_USAGE_RETENTION_DAYS }),
    /** The audit log's retention. */
    audit: auditConfigSchema.default({ retentionDays: DEFAULT_USAGE_RETENTION_DAYS }),
    /** The alert delivery attempts' retention. */
    alertDeliveries: alertDeliveriesConfigSchema.default({ retentionDays: DEFAULT_ALERT_DELIVERY_RETENTION_DAYS }),
    /** Which credential and target a conversation keeps, and for how long. */
    sessionAffinity: sessionAffinityConfigSchema.default({
      enabled: true,
      idleTimeoutMs: DEFAULT_AFFINITY_IDLE_TIMEOUT_MS,
      maxConversations: DEFAULT_MAX_CONVERSATIONS,
    }),
  })
  .strict()
  .transform(({ messages, ...config }) =>
    messages ? { ...config, interfaceAuth: { messages, ...config.interfaceAuth } } : config,
  )
  .superRefine((config, context) => {
    for (const [name, upstream] of Object.entries(config.upstreams)) checkCredentials(name, upstream, context);
    const seen = new Set<string>();
    config.routes.forEach((route, index) => {
      if (seen.has(route.model)) {
        context.addIssue({ code: 'custom', path: ['routes', index, 'model'], message: `duplicate model ID '${route.model}'` });
      }
      seen.add(route.model);
      checkTargetPricing(route, index, context);
      route.targets.forEach((target, targetIndex) => {
        if (!(target.upstream in config.upstreams)) {
          context.addIssue({
            code: 'custom',
            path: ['routes', index, 'targets', targetIndex, 'upstream'],
            message: `unknown upstream '${target.upstream}' (known: ${Object.keys(config.upstreams).join(', ')})`,
          });
        }
      });
    });
  });

/** An upstream names its keys one way (`apiKeyEnv` or `credentials`), and each credential's name once. */
function checkCredentials(name: string, upstream: z.output<typeof upstreamConfigSchema>, context: z.RefinementCtx): void {
  if (upstream.credentials === undefined) return;
  if (upstream.apiKeyEnv !== undefined) {
    context.addIssue({ code: 'custom', path: ['upstreams', name, 'apiKeyEnv'], message: 'set apiKeyEnv or credentials, not both (a single key is a pool of one)' });
  }
  const names = new Set<string>();
  upstream.credentials.forEach((credential, index) => {
    if (names.has(credential.name)) {
      context.addIssue({ code: 'custom', path: ['upstreams', name, 'credentials', index, 'name'], message: `duplicate credential name '${credential.name}'` });
    }
    names.add(credential.name);
  });
}

/** A config as written in a file (defaults optional). */
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
/** A config as the schema reads it: a route's pricing may still be `catalog`. */
export type ParsedGatewayConfig = z.output<typeof gatewayConfigSchema>;
/**
 * A validated route: its `pricing` is prices (`catalog` resolved at start) or absent; a route priced
 * from the catalog also has each target model's own (`targetPricing`).
 */
export type RouteConfig = Omit<z.output<typeof routeConfigSchema>, 'pricing'> & { pricing?: ModelPricing };
/** A validated config with every default filled in and every route's prices known. */
export type GatewayConfig = Omit<ParsedGatewayConfig, 'routes'> & { routes: RouteConfig[] };
export type UpstreamConfig = z.output<typeof upstreamConfigSchema>;
/** A route's `promptCache` setting. */
export type PromptCacheMode = NonNullable<RouteConfig['promptCache']>;
