import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInKinds } from 'signalbox';
import { codecs, loadConfigFile } from '../../examples/server/src';

/**
 * Every sample config in examples/configs is a config the example server starts with: parsed and
 * validated as `SIGNALBOX_CONFIG` would be (presets, quirks, catalog prices, protocols against the
 * codecs, each cloud upstream's kind and auth against the built-in kinds), and the README points to it.
 */
const folder = join(__dirname, '../../examples/configs');
const samples = readdirSync(folder).filter(name => name.endsWith('.yaml'));
const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

describe('sample configs', () => {
  it('cover each preset family', () => {
    expect(samples.sort()).toEqual(['anthropic.yaml', 'azure-openai.yaml', 'bedrock.yaml', 'hosted-compatible.yaml', 'local-servers.yaml', 'openai.yaml', 'openrouter.yaml', 'vertex.yaml']);
  });

  it.each(samples)('%s validates and names its upstreams by provider', name => {
    const config = loadConfigFile(join(folder, name), 'http://127.0.0.1:1', codecs);
    expect(config.routes.length).toBeGreaterThan(0);
    for (const upstream of Object.values(config.upstreams)) {
      expect(upstream.provider).toBeDefined();
      if (upstream.kind === undefined) continue;
      const kind = builtInKinds.find(known => known.name === upstream.kind);
      expect(kind?.protocols).toContain(upstream.protocol);
      expect(kind?.checkAuth(upstream.auth)).toEqual([]);
    }
  });

  it('name a kind for each cloud', () => {
    const kinds = ['azure-openai.yaml', 'bedrock.yaml', 'vertex.yaml'].map(name => Object.values(loadConfigFile(join(folder, name), 'http://127.0.0.1:1', codecs).upstreams).map(upstream => upstream.kind));
    expect(kinds).toEqual([['azure-openai', 'azure-openai'], ['bedrock', 'bedrock'], ['vertex', 'vertex']]);
  });

  it.each(samples)('%s is referenced from the README', name => {
    expect(readme).toContain(`examples/configs/${name}`);
  });
});
