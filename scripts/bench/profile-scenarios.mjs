// `pnpm bench --profile`: each scenario's gateway in a fresh process under `node --cpu-prof`, one
// warm-up and one measured window of load, then the profile V8 writes at exit, summarised by
// package and function. The profiles stay in a temporary folder whose path is printed.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS, requestFor } from './bench-scenarios.mjs';
import { startGateway } from './bench-servers.mjs';
import { connectionsFor, runLoad } from './run-load.mjs';
import { formatProfileSummary, mainThreadProfile, summariseProfile } from './summarise-profile.mjs';

/** Profiles `same` and `translated` for each of `scenarios`; resolves with `[{ target, scenario, file, summary }]` and prints each summary. */
export async function profileScenarios({ folder, simulatorURL, key, storage, scenarios, options, generator, log }) {
  const directory = mkdtempSync(join(tmpdir(), 'signalbox-bench-profiles-'));
  const profiles = [];
  for (const [scenarioName, scenario] of scenarios) {
    for (const target of ['same', 'translated']) {
      const into = join(directory, `${target}-${scenarioName}`);
      const server = await startGateway(folder, `profile-${target}-${scenarioName}`, simulatorURL, { key, storage, nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${into}`] });
      try {
        const load = seconds => runLoad({ generator, server, request: requestFor(target, scenario, { key }), connections: connectionsFor(scenarioName, options), seconds });
        await load(1);
        await load(options.seconds);
      } finally {
        await server.stop();
      }
      const name = mainThreadProfile(readdirSync(into));
      if (!name) {
        log(`profile ${target} ${scenarioName}: no .cpuprofile written`);
        continue;
      }
      const file = join(into, name);
      const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { top: 15 });
      profiles.push({ target, scenario: scenarioName, file, summary });
      console.log(`\n### Profile: ${target === 'same' ? 'Chat -> Chat' : 'Messages -> Chat'}, ${SCENARIOS[scenarioName].label}\n${file}\n\n${formatProfileSummary(summary)}`);
    }
  }
  console.log(`\nprofiles in ${directory} (open one in Chrome DevTools, or summarise it: node scripts/bench/summarise-profile.mjs FILE)`);
  return profiles;
}
