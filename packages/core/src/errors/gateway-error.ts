import { GATEWAY_ERROR_CODES, type ErrorSource, type GatewayErrorCode } from './error-codes';

const gatewayErrorMarker = Symbol.for('signalbox.gateway-error');

/** What an upstream said about its own failure, kept apart from the gateway's service code. */
export type UpstreamErrorDetails = {
  status?: number;
  /** The upstream's `error.type` (e.g. `rate_limit_error`, `invalid_request_error`). */
  type?: string;
  /** The upstream's `error.code` (e.g. `context_length_exceeded`). */
  code?: string;
  message?: string;
  param?: string;
  requestId?: string;
};

/** One field that failed validation: a dotted path (`input.0.content`) and what is wrong. */
export type ValidationIssue = { path: string; message: string };

export type GatewayErrorOptions = {
  code: GatewayErrorCode;
  message: string;
  /** The request field at fault, as a dotted path. */
  param?: string;
  issues?: readonly ValidationIssue[];
  /** How long the caller should wait before retrying; rendered as `Retry-After`. */
  retryAfterMs?: number;
  upstream?: UpstreamErrorDetails;
  cause?: unknown;
};

/**
 * The one error type of the gateway. Its `code` is a stable service code from
 * `GATEWAY_ERROR_CODES`, which also fixes the HTTP status; codecs render it in each protocol's envelope.
 */
export class GatewayError extends Error {
  private readonly [gatewayErrorMarker] = true;
  readonly code: GatewayErrorCode;
  readonly status: number;
  readonly source: ErrorSource;
  readonly retryable: boolean;
  readonly param: string | undefined;
  readonly issues: readonly ValidationIssue[];
  readonly retryAfterMs: number | undefined;
  readonly upstream: UpstreamErrorDetails | undefined;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    const spec = GATEWAY_ERROR_CODES[options.code];
    this.name = 'GatewayError';
    this.code = options.code;
    this.status = spec.status;
    this.source = spec.source;
    this.retryable = spec.retryable;
    this.param = options.param;
    this.issues = options.issues ?? [];
    this.retryAfterMs = options.retryAfterMs;
    this.upstream = options.upstream;
  }

  /** True for errors from any copy of this package (`instanceof` is not). */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && gatewayErrorMarker in value;
  }

  /** The same error with every text that quotes input passed through `scrub` (credentials removed). */
  withScrubbedText(scrub: (text: string) => string): GatewayError {
    const upstream = this.upstream && { ...this.upstream, ...(this.upstream.message !== undefined && { message: scrub(this.upstream.message) }) };
    return new GatewayError({
      code: this.code,
      message: scrub(this.message),
      ...(this.param !== undefined && { param: scrub(this.param) }),
      issues: this.issues.map(issue => ({ path: scrub(issue.path), message: scrub(issue.message) })),
      ...(this.retryAfterMs !== undefined && { retryAfterMs: this.retryAfterMs }),
      ...(upstream && { upstream }),
      cause: this.cause,
    });
  }

  /** Wraps anything thrown into a GatewayError, keeping the original as `cause`. */
  static from(value: unknown): GatewayError {
    if (GatewayError.isInstance(value)) return value;
    return new GatewayError({ code: 'INTERNAL_ERROR', message: 'Internal gateway error.', cause: value });
  }
}
