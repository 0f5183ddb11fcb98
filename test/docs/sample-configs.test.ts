import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codecs, loadConfigFile } from '../../examples/server/src';

/**
 * Every sample config in examples/configs is a config the example server starts with: parsed and
 * validated as `SIGNALBOX_CONFIG` would be (presets, quirks, catalog prices, protocols against the
 * codecs), and the README points to it.
 */
const folder = join(__dirname, '../../examples/configs');
const samples = readdirSync(folder).filter(name => name.endsWith('.yaml'));
const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

describe('sample configs', () => {
  it('cover each preset family', () => {
    expect(samples.sort()).toEqual(['anthropic.yaml', 'hosted-compatible.yaml', 'local-servers.yaml', 'openai.yaml', 'openrouter.yaml']);
  });

  it.each(samples)('%s validates and names its upstreams by provider', name => {
    const config = loadConfigFile(join(folder, name), 'http://127.0.0.1:1', codecs);
    expect(config.routes.length).toBeGreaterThan(0);
    for (const upstream of Object.values(config.upstreams)) expect(upstream.provider).toBeDefined();
  });

  it.each(samples)('%s is referenced from the README', name => {
    expect(readme).toContain(`examples/configs/${name}`);
  });
});
