import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { startExampleServer } from './start-example-server';
import { priceCatalogFileIn } from './read-price-catalog-file';

/** Runs one command in process and returns its exit code and what it printed. */
async function run(dataDirectory: string, ...argv: string[]) {
  let output = '';
  let errors = '';
  const code = await runCli(argv, { dataDirectory, environment: {}, write: text => (output += text), writeError: text => (errors += text) });
  return { code, output, errors };
}

const catalog = {
  asOf: '2027-02-01',
  currency: 'USD',
  vendors: {
    simulated: { source: 'https://vendor.example/pricing', asOf: '2027-01-31', models: { 'sim-model': { inputPerMillion: 2, outputPerMillion: 6 } } },
  },
};

/** A config whose one route is priced from the catalog, on the embedded simulator. */
const config = (model: string) => ({
  upstreams: { simulator: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1' } },
  routes: [{ model: 'priced', interfaces: ['chat'], targets: [{ upstream: 'simulator', model }], pricing: 'catalog' }],
});

describe('catalog import', () => {
  let folder: string;
  let dataDirectory: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-catalog-cli-'));
    dataDirectory = join(folder, 'data');
    mkdirSync(dataDirectory, { mode: 0o700 });
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function write(name: string, value: unknown): string {
    const path = join(folder, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  }

  async function startOn(configPath: string) {
    return startExampleServer({
      port: 0,
      host: '127.0.0.1',
      configPath,
      storage: { kind: 'data-directory', path: dataDirectory },
      priceCatalogPath: priceCatalogFileIn(dataDirectory),
    });
  }

  it('installs a checked catalog in the data folder, which the server then prices catalog routes from', async () => {
    const imported = await run(dataDirectory, 'catalog', 'import', write('prices.json', catalog));
    expect(imported).toMatchObject({ code: 0, errors: '' });
    expect(imported.output).toContain('Installed the price catalog of 2027-02-01 (USD)');
    expect(imported.output).toContain('simulated: 1 models, as of 2027-01-31');
    const installed = priceCatalogFileIn(dataDirectory);
    expect(JSON.parse(readFileSync(installed, 'utf8'))).toEqual(catalog);
    expect(statSync(installed).mode & 0o777).toBe(0o600);

    const server = await startOn(write('config.json', config('sim-model')));
    try {
      expect(server.gateway.engine.routes[0]?.pricing).toMatchObject({ inputPerMillion: 2, outputPerMillion: 6 });
    } finally {
      await server.close();
    }
  });

  it('refuses a file that is not a catalog, naming what is wrong, and installs nothing', async () => {
    const refused = await run(dataDirectory, 'catalog', 'import', write('bad.json', { ...catalog, asOf: 'yesterday' }));
    expect(refused.code).toBe(1);
    expect(refused.errors).toMatch(/^catalog import: FILE .*bad\.json: is not a price catalog: asOf: Invalid ISO date$/m);
    const notJSON = await run(dataDirectory, 'catalog', 'import', write('bad.txt', 'prices: 1'));
    expect(notJSON.errors).toMatch(/bad\.txt: is not JSON/);
    expect(() => statSync(priceCatalogFileIn(dataDirectory))).toThrow();
  });

  it("stops a start whose catalog route names a model the imported catalog lacks, with the catalog's date", async () => {
    await run(dataDirectory, 'catalog', 'import', write('prices.json', catalog));
    const failure = await startOn(write('config.json', config('other-model'))).catch((error: unknown) => error);
    expect((failure as Error).message).toContain("routes.0.targets.0.model: 'other-model' is not in the price catalog (as of 2027-02-01)");
  });
});
