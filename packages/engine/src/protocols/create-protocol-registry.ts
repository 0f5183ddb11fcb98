import { composeForeignFields, type Codec, type ForeignFields, type Protocol, type RequestShape } from '@signalbox/core';

/**
 * One HTTP endpoint the gateway serves for a codec's clients. A path several codecs declare (the
 * usual `GET /v1/models`) is served once, `shared`: its caller's credential picks the codec.
 */
export type Endpoint = {
  method: 'GET' | 'POST' | 'DELETE';
  /** As declared; a stored response's id goes where `{id}` is. */
  path: string;
  /**
   * `compaction` serves a codec's `compaction`; `stored-response` (`GET` reads, `DELETE` deletes)
   * and `stored-input-items` serve its `conversation`.
   */
  kind: 'generation' | 'token-count' | 'compaction' | 'models' | 'stored-response' | 'stored-input-items';
  codec: Codec;
  shared: boolean;
  /** A generation endpoint whose path asks for a stream (the descriptor's `streamGenerationPath`). */
  stream?: boolean;
};

/**
 * The codecs a gateway speaks, and every table derived from their descriptors: endpoints, interface
 * names, the envelope for a request no endpoint claimed, each endpoint's refusal of the other
 * protocols' fields. Nothing about a protocol is known here, nor by another codec, that its codec
 * did not declare.
 */
export type ProtocolRegistry = {
  readonly codecs: readonly Codec[];
  /** Every endpoint, generation endpoints first, each path once (the models list is shared). */
  readonly endpoints: readonly Endpoint[];
  codec(protocol: Protocol): Codec;
  /** The codec of a config interface name (`responses`, `messages`, …), if the gateway speaks it. */
  codecOfInterface(name: string): Codec | undefined;
  /**
   * The other codecs' signature fields, as the endpoint of `codec` refuses them (its decoder gets
   * them in `DecodeOptions.foreignFields`); composed once, at creation.
   */
  foreignFieldsOf(codec: Codec): ForeignFields;
  /** The codec whose clients most likely sent a request that no endpoint claimed. */
  guess(request: RequestShape): Codec;
  /** The codec whose credential a models-list caller presented: its own header, else the first Bearer codec. */
  codecForCredentials(headerNames: ReadonlySet<string>): Codec;
  /**
   * The first codec whose clients send a Bearer key (else the first codec): its envelope answers the
   * endpoints that belong to no protocol (the admin API, `/metrics`, the OpenAPI document's errors).
   */
  readonly bearerCodec: Codec;
};

/** Builds the registry; throws at creation when two codecs claim the same protocol, interface or path. */
export function createProtocolRegistry(codecs: readonly Codec[]): ProtocolRegistry {
  if (codecs.length === 0) throw new Error('At least one codec is needed (createGateway({ codecs: [...] })).');
  const byProtocol = uniqueBy(codecs, codec => codec.protocol, 'protocol');
  const byInterface = uniqueBy(codecs, codec => codec.descriptor.interfaceName, 'interface name');
  const endpoints = collectEndpoints(codecs);
  const generations = endpoints.filter(endpoint => endpoint.kind === 'generation');
  const generationByPath = new Map(generations.map(endpoint => [endpoint.path, endpoint.codec]));
  // Paths with a parameter (Gemini's `{model}`) are matched as the Router matches them.
  const templated = generations.filter(endpoint => endpoint.path.includes('{')).map(endpoint => ({ pattern: pathPattern(endpoint.path), codec: endpoint.codec }));
  const bearer = codecs.find(codec => codec.descriptor.credential.kind === 'bearer') ?? codecs[0]!;
  const composed = composeForeignFields(codecs.map(codec => codec.descriptor));
  const foreignFields = new Map(codecs.map((codec, index) => [codec.protocol, composed[index]!]));
  return {
    codecs,
    endpoints,
    codec(protocol) {
      const codec = byProtocol.get(protocol);
      if (!codec) throw new Error(`No codec was given for protocol '${protocol}'.`);
      return codec;
    },
    codecOfInterface: name => byInterface.get(name),
    foreignFieldsOf: codec => foreignFields.get(codec.protocol) ?? { path: codec.descriptor.generationPath, fields: new Map() },
    guess(request) {
      const routed = request.path.length > 1 ? request.path.replace(/\/$/, '') : request.path;
      const generation = request.method === 'POST' ? (generationByPath.get(routed) ?? templated.find(({ pattern }) => pattern.test(routed))?.codec) : undefined;
      if (generation) return generation;
      let best = codecs[0]!;
      let strength = 0;
      for (const codec of codecs) {
        const claim = codec.descriptor.recognizes(request);
        if (claim > strength) [best, strength] = [codec, claim];
      }
      return best;
    },
    bearerCodec: bearer,
    codecForCredentials(headerNames) {
      const own = codecs.find(({ descriptor: { credential } }) => credential.kind === 'header' && headerNames.has(credential.header));
      return own ?? bearer;
    },
  };
}

function collectEndpoints(codecs: readonly Codec[]): Endpoint[] {
  const endpoints: Endpoint[] = [];
  const claimed = new Map<string, Endpoint>();
  const add = (endpoint: Omit<Endpoint, 'shared'>) => {
    claim(endpoint);
    for (const [prefix, alias] of Object.entries(endpoint.codec.descriptor.pathPrefixAliases ?? {})) {
      if (endpoint.path.startsWith(prefix)) claim({ ...endpoint, path: `${alias}${endpoint.path.slice(prefix.length)}` });
    }
  };
  const claim = (endpoint: Omit<Endpoint, 'shared'>) => {
    const key = `${endpoint.method} ${endpoint.path}`;
    const earlier = claimed.get(key);
    if (earlier?.kind === 'models' && endpoint.kind === 'models') {
      earlier.shared = true;
      return;
    }
    if (earlier) throw new Error(`Two codecs claim ${key}.`);
    const added = { ...endpoint, shared: false };
    claimed.set(key, added);
    endpoints.push(added);
  };
  for (const codec of codecs) add({ method: 'POST', path: codec.descriptor.generationPath, kind: 'generation', codec });
  for (const codec of codecs) {
    const { streamGenerationPath } = codec.descriptor;
    if (streamGenerationPath !== undefined) add({ method: 'POST', path: streamGenerationPath, kind: 'generation', codec, stream: true });
  }
  for (const codec of codecs) {
    const { tokenCountPath } = codec.descriptor;
    if (tokenCountPath !== undefined && codec.decodeTokenCountRequest && codec.encodeTokenCount) {
      add({ method: 'POST', path: tokenCountPath, kind: 'token-count', codec });
    }
  }
  for (const codec of codecs) {
    const { compactionPath } = codec.descriptor;
    if (compactionPath !== undefined && codec.compaction) add({ method: 'POST', path: compactionPath, kind: 'compaction', codec });
  }
  for (const codec of codecs) add({ method: 'GET', path: codec.descriptor.modelsPath, kind: 'models', codec });
  for (const codec of codecs) {
    const paths = codec.descriptor.storedResponsePaths;
    if (!paths || !codec.conversation) continue;
    add({ method: 'GET', path: paths.response, kind: 'stored-response', codec });
    add({ method: 'DELETE', path: paths.response, kind: 'stored-response', codec });
    add({ method: 'GET', path: paths.inputItems, kind: 'stored-input-items', codec });
  }
  return endpoints;
}

/** A declared path as a pattern: each `{name}` one non-empty segment, the rest literal, without regard to case. */
function pathPattern(path: string): RegExp {
  const literal = path.split(/\{[^}]+\}/).map(part => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/]+')}$`, 'i');
}

function uniqueBy<K>(codecs: readonly Codec[], keyOf: (codec: Codec) => K, what: string): Map<K, Codec> {
  const map = new Map<K, Codec>();
  for (const codec of codecs) {
    const key = keyOf(codec);
    if (map.has(key)) throw new Error(`Two codecs share the ${what} '${String(key)}'.`);
    map.set(key, codec);
  }
  return map;
}
