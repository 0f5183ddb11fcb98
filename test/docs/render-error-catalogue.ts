import { ERROR_CATALOGUE, GATEWAY_ERROR_CODES, type GatewayErrorCode } from '@signalbox/core';

const SOURCE_WORDS = { service: 'service', compatibility: 'compatibility layer', upstream: 'upstream' } as const;

/** The error catalogue page, rendered from the code table and its catalogue entries. */
export function renderErrorCatalogue(): string {
  const codes = Object.keys(GATEWAY_ERROR_CODES) as GatewayErrorCode[];
  const sorted = codes.sort((a, b) => GATEWAY_ERROR_CODES[a].status - GATEWAY_ERROR_CODES[b].status);
  const rows = sorted.map(code => {
    const spec = GATEWAY_ERROR_CODES[code];
    const entry = ERROR_CATALOGUE[code];
    return `| \`${code}\` | ${spec.status} | ${SOURCE_WORDS[spec.source]} | ${entry.meaning} | ${entry.action} |`;
  });
  return `# Error catalogue

Every refusal carries a stable service code as the top-level \`code\` of the body, the request id as
\`request_id\` (and in the \`x-request-id\` header; \`request-id\` too on Messages), inside the
caller's own protocol envelope:

- Responses and Chat Completions: \`{"error":{"message","type","param","code"},"code","request_id"}\`
  — \`error.type\` / \`error.code\` are OpenAI's words (compatibility layer), or the upstream's own
  code for upstream errors.
- Messages: \`{"type":"error","error":{"type","message"},"code","request_id"}\` — \`error.type\`
  follows Anthropic's status table (\`invalid_request_error\`, \`authentication_error\`,
  \`permission_error\`, \`not_found_error\`, \`request_too_large\`, \`rate_limit_error\`,
  \`api_error\`, \`overloaded_error\`, \`timeout_error\`).
- Gemini: \`{"error":{"code","message","status","details"},"code","request_id"}\` — \`error.code\` is
  the HTTP status and \`error.status\` Google's canonical name for it (\`INVALID_ARGUMENT\`,
  \`UNAUTHENTICATED\`, \`PERMISSION_DENIED\`, \`NOT_FOUND\`, \`RESOURCE_EXHAUSTED\`, \`INTERNAL\`,
  \`UNAVAILABLE\`, \`DEADLINE_EXCEEDED\`, \`FAILED_PRECONDITION\`); \`error.details\` holds a
  \`google.rpc.ErrorInfo\` whose \`reason\` is the service code and a \`google.rpc.RequestInfo\` with the
  request id.

Read a JSON error in this order: the top-level \`code\`, then \`error.type\`, \`error.code\`, and the
message. The three sources stay apart: service codes are the gateway's own; compatibility-layer
words are the protocol's; upstream codes are what the provider said, kept in \`error.code\` and the
message, never in the top-level \`code\`. 429s carry \`Retry-After\` computed from the limiter's
real state, or the upstream's own value. After a stream has started, failures arrive as the
protocol's terminal error event instead (\`response.failed\`, \`event: error\`, a Chat or Gemini
\`{"error":…}\` chunk): treat partial output as failed, never as success.

This page is generated from \`packages/core/src/errors/\` (\`GATEWAY_ERROR_CODES\`, \`ERROR_CATALOGUE\`);
\`test/docs/error-catalogue.test.ts\` fails when they drift apart.

| code | status | source | meaning | caller's action and retry rule |
|---|---|---|---|---|
${rows.join('\n')}
`;
}
