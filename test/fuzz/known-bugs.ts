/**
 * Gateway bugs the fuzzer found, each pinned by a failing test of the same name in
 * `regressions.test.ts`. While a bug is open its switch keeps the properties from generating
 * that one trigger (so they keep searching for other faults); flip it to `false` once the
 * regression test passes, and the properties cover that ground again.
 */
export const KNOWN_BUGS = {
  /** "deeply nested free-form JSON gets a 500 instead of a 4xx" */
  deepNesting: true,
  /** "a body that fails to decompress gets a 500 instead of a 400" */
  badCompressedBody: true,
  /** "a key sent in a non-credential header is written to the access log" */
  keyInOtherHeaderLogged: true,
  /**
   * "HTTP-level parse errors get node's bare 400/431 without envelope or request id": a
   * Content-Length shorter than the body, raw non-ASCII bytes in the request target, a path over
   * node's 16 KiB header limit.
   */
  httpParseErrors: true,
  /** "a key in the path comes back in the 404 message" */
  keyInPathEchoed: true,
  /** "a key in the model or a type field, or as a field name, comes back in the refusal message" */
  keyInBodyEchoed: true,
  /** "a malformed percent-escape in an admin id gets a 500 instead of a 400" */
  adminMalformedEscape: true,
} as const;
