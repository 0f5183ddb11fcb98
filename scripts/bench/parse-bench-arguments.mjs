// The command line of `pnpm bench`.

export const USAGE = `usage: pnpm bench [options]
  --quick                 2 rounds of 2 s, fewer latency samples and held streams (about two minutes)
  --only=LIST             some of: json, stream, paced, latency, memory (comma-separated)
  --seconds=N             seconds per measured window (default 5)
  --rounds=N              interleaved rounds, at least 2 (default 2); medians are reported
  --connections=N         connections for JSON and 20-delta streams (default 32)
  --paced-connections=N   connections for paced streams (default 200)
  --streams=N             streams held open for the memory measurement (default 1000)
  --latency-requests=N    sequential requests per target for the added latency (default 2000)
  --store=sqlite|postgres the gateway's storage: a SQLite data folder (default), or throwaway
                          PostgreSQL + Redis servers
  --no-portkey            leave out the Portkey column
  --bedrock               also measure a Messages client on a Bedrock-kind route (SigV4, event
                          stream) and on a Messages route, in a gateway of their own, against a
                          bench Bedrock upstream on 127.0.0.1 (about 2 more minutes)
  --load=wrk|node         the load generator (default wrk; node when wrk cannot be installed)
  --middleware            also measure what pricing, limits and logging each cost
  --observability         also measure what metrics and tracing cost (JSON and 20-delta streams)
  --profile               also run each scenario's gateway under node --cpu-prof and summarise it
  --out=FILE              where to write the results (default bench-results/<time>-<commit>.json)
  --compare=FILE          print an earlier run's results beside these, with the change
  --ledger                run only the usage-ledger benchmark (usage-page.mjs)`;

const SCENARIOS = ['json', 'stream', 'paced', 'latency', 'memory'];

/** Options from `argv` (process.argv without node and the script); throws with the usage on a bad one. */
export function parseBenchArguments(argv) {
  const options = {
    seconds: 5,
    rounds: 2,
    connections: 32,
    pacedConnections: 200,
    streams: 1000,
    latencyRequests: 2000,
    only: SCENARIOS,
    store: 'sqlite',
    portkey: true,
    bedrock: false,
    load: 'wrk',
    middleware: false,
    observability: false,
    profile: false,
    out: undefined,
    compare: undefined,
    ledger: false,
    quick: false,
  };
  const numbers = { seconds: 'seconds', rounds: 'rounds', connections: 'connections', 'paced-connections': 'pacedConnections', streams: 'streams', 'latency-requests': 'latencyRequests' };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const [flag, inline] = argument.split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++index] ?? fail(`${flag} needs a value`);
    if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--quick') Object.assign(options, { quick: true, seconds: 2, rounds: 2, streams: 300, latencyRequests: 600 });
    else if (flag === '--only') options.only = value().split(',').map(name => (SCENARIOS.includes(name) ? name : fail(`--only: unknown scenario '${name}' (${SCENARIOS.join(', ')})`)));
    else if (flag === '--store') options.store = oneOf(value(), ['sqlite', 'postgres'], flag);
    else if (flag === '--load') options.load = oneOf(value(), ['wrk', 'node'], flag);
    else if (flag === '--no-portkey') options.portkey = false;
    else if (flag === '--bedrock') options.bedrock = true;
    else if (flag === '--middleware') options.middleware = true;
    else if (flag === '--observability') options.observability = true;
    else if (flag === '--profile') options.profile = true;
    else if (flag === '--ledger') options.ledger = true;
    else if (flag === '--out') options.out = value();
    else if (flag === '--compare') options.compare = value();
    else if (flag.startsWith('--') && numbers[flag.slice(2)]) {
      const number = Number(value());
      if (!Number.isFinite(number) || number <= 0) fail(`${flag}: a positive number`);
      options[numbers[flag.slice(2)]] = number;
    } else fail(`unknown option ${argument}`);
  }
  if (options.rounds < 2) fail('--rounds: at least 2 (the rounds interleave the targets)');
  return options;
}

function oneOf(given, allowed, flag) {
  return allowed.includes(given) ? given : fail(`${flag}: one of ${allowed.join(', ')}`);
}

function fail(message) {
  throw new Error(`${message}\n${USAGE}`);
}
