// Loaded into the Portkey gateway with `node --import`: on Node 24, responses of the global fetch
// have immutable headers, and Portkey 1.15.2 appends its own headers to the upstream response of a
// stream, which then fails with "TypeError: immutable" and a 500
// (https://github.com/Portkey-AI/gateway/issues/1389). Re-wrapping each response in one with
// ordinary headers lets its streams run; it adds one Response object per request to Portkey's cost.
const upstreamFetch = globalThis.fetch;
globalThis.fetch = async (...parameters) => {
  const answer = await upstreamFetch(...parameters);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: new Headers(answer.headers) });
};
