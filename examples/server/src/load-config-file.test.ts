import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codecs } from './codecs';
import { describeStartUpError } from './describe-start-up-error';
import { loadConfigFile } from './load-config-file';

const folder = mkdtempSync(join(tmpdir(), 'signalbox-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const upstreams = { sim: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1' } };
const routes = [{ model: 'm', interfaces: ['chat'], targets: [{ upstream: 'sim', model: 'sim-1' }] }];

/** The one line the server prints when it cannot start with `text` as its config file `name`. */
function startUpLine(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  try {
    loadConfigFile(path, 'http://127.0.0.1:9', codecs);
  } catch (error) {
    return describeStartUpError(error).replace(`SIGNALBOX_CONFIG=${path}`, 'SIGNALBOX_CONFIG=<file>');
  }
  throw new Error(`${name} loaded`);
}

describe('a config file the server cannot use: one line in one form, SIGNALBOX_CONFIG=<file>: <where>: <problem>', () => {
  it.each([
    ['a trailing comma in an object', '{\n  "routes": [],\n}', 'line 3, column 1: Expected double-quoted property name'],
    ['a trailing comma in an array', '{\n  "routes": [1, 2,]\n}', "line 2, column 19: Unexpected token ']'"],
    ['a comment', '{\n  "routes": [] // none yet\n}', "line 2, column 16: Expected ',' or '}' after property value"],
    ['a comment in an array', '{\n  "routes": [\n    // none yet\n  ]\n}', "line 3, column 5: Unexpected token '/'"],
    ['single quotes', "{\n  'routes': []\n}", 'line 2, column 3: Expected property name or \'}\''],
    ['a word that is no value', '{\n  "a": tru }', "line 2, column 11: Unexpected token ' '"],
    ['a value without quotes', '{\n  "model": sim-1 }', "line 2, column 12: Unexpected token 's'"],
    ['a file that ends too soon', '{\n  "routes": [\n', 'line 3, column 1: Unexpected end of JSON input'],
    ['an empty file', '', 'line 1, column 1: Unexpected end of JSON input'],
  ])('gives a JSON syntax error its line and column: %s', (_case, text, expected) => {
    expect(startUpLine('gateway.json', text)).toBe(`SIGNALBOX_CONFIG=<file>: JSON syntax error at ${expected}`);
  });

  it('never quotes the file in a syntax error (it may hold a secret)', () => {
    const text = `{"keys": ["sbx-${'s'.repeat(40)}", oops]}`;
    expect(() => JSON.parse(text)).toThrow(/sss/); // the parser's own message quotes the text around the error
    expect(startUpLine('secret.json', text)).toBe("SIGNALBOX_CONFIG=<file>: JSON syntax error at line 1, column 59: Unexpected token 'o'");
  });

  it('gives a YAML syntax error its line and column', () => {
    expect(startUpLine('gateway.yaml', 'routes:\n  - model: m\n   interfaces: [chat]\n')).toMatch(
      /^SIGNALBOX_CONFIG=<file>: YAML syntax error at line 3, column \d+: /,
    );
  });

  it('names a mistyped key with the one it likely stands for, in the gateway config and in the server\'s own sections', () => {
    const text = JSON.stringify({
      upstreams: { sim: { ...upstreams.sim, baseUrl: 'http://127.0.0.1:9' } },
      routes,
      tracng: { endpoint: 'http://127.0.0.1:4318' },
      storage: { database: { urlEnv: 'DATABASE_URL', passwordEnvv: 'PASSWORD' } },
      metrics: { enabled: true, prot: 9100 },
    });
    expect(startUpLine('typos.json', text)).toBe(
      'SIGNALBOX_CONFIG=<file>: storage.database: unknown field passwordEnvv (did you mean passwordEnv?)',
    );
    const gatewayOnly = JSON.stringify({ upstreams: { sim: { ...upstreams.sim, apiKeyenv: 'KEY' } }, routes, tracng: {} });
    expect(startUpLine('gateway-typos.json', gatewayOnly)).toBe(
      'SIGNALBOX_CONFIG=<file>: upstreams.sim: unknown field apiKeyenv (did you mean apiKeyEnv?); (root): unknown field tracng (did you mean tracing?)',
    );
    expect(startUpLine('metrics-typo.json', JSON.stringify({ upstreams, routes, metrics: { prot: 9100 } }))).toBe(
      'SIGNALBOX_CONFIG=<file>: metrics: unknown field prot (did you mean port?)',
    );
  });

  it('names an upstream protocol and a route interface no codec speaks, in the same form', () => {
    const text = JSON.stringify({
      upstreams: { sim: { ...upstreams.sim, protocol: 'openai-chats' } },
      routes: [{ ...routes[0], interfaces: ['chat', 'message'] }],
    });
    expect(startUpLine('protocols.json', text)).toBe(
      "SIGNALBOX_CONFIG=<file>: upstreams.sim.protocol: no codec speaks 'openai-chats' (known: openai-responses, anthropic-messages, openai-chat, google-gemini); routes.0.interfaces.1: unknown interface 'message' (known: responses, messages, chat, gemini)",
    );
  });
});
