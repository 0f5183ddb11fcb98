import { parseArgs } from 'node:util';
import { closestName } from '@signalbox/core';
import { CliError, PROGRAM, type CliCommand, type CliInput } from './cli-command';
import { formatCommandUsage, formatProgramUsage } from './format-cli-usage';

/** What the command line asks for: a help text to print, or a command to run with its input. */
export type CliRequest = { kind: 'help'; text: string } | { kind: 'run'; command: CliCommand; input: CliInput };

const HELP = new Set(['--help', '-h', 'help']);
// parseArgs would read `-5` as a flag; numbers are marked before parsing and unmarked after.
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
const MARK = '\u0000';

/**
 * Reads `argv` (without the program name) against the command table: `help`, `--help` or `-h`
 * anywhere before `--` asks for the usage of what precedes it; anything else is checked strictly
 * (unknown commands and flags, missing values and required flags are `CliError`s naming them).
 */
export function parseCliArguments(argv: readonly string[], commands: readonly CliCommand[]): CliRequest {
  const [group, verb, ...rest] = argv;
  if (group === undefined || HELP.has(group)) return { kind: 'help', text: helpFor(verb === undefined ? [] : [verb, ...rest], commands) };
  const groups = [...new Set(commands.map(command => command.name.split(' ')[0]!))];
  if (!groups.includes(group)) {
    throw new CliError(`unknown command '${group}'${suggest(group, groups, '')}; see '${PROGRAM} --help'`);
  }
  const verbs = commands.filter(command => command.name.startsWith(`${group} `)).map(command => command.name.split(' ')[1]!);
  if (verb === undefined || HELP.has(verb)) {
    if (verb !== undefined) return { kind: 'help', text: formatProgramUsage(commands, group) };
    throw new CliError(`${group}: which command? One of: ${verbs.join(', ')}; see '${PROGRAM} ${group} --help'`);
  }
  const command = commands.find(candidate => candidate.name === `${group} ${verb}`);
  if (!command) {
    throw new CliError(`${group}: unknown command '${verb}'${suggest(verb, verbs, '')} (one of: ${verbs.join(', ')}); see '${PROGRAM} ${group} --help'`);
  }
  const beforeTerminator = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (beforeTerminator.some(argument => HELP.has(argument))) return { kind: 'help', text: formatCommandUsage(command) };
  return { kind: 'run', command, input: readInput(command, rest) };
}

function helpFor(topic: readonly string[], commands: readonly CliCommand[]): string {
  if (topic.length === 0) return formatProgramUsage(commands);
  const request = parseCliArguments([...topic.slice(0, 2), '--help'], commands);
  return request.kind === 'help' ? request.text : formatProgramUsage(commands);
}

function readInput(command: CliCommand, argv: readonly string[]): CliInput {
  const declared = command.options ?? {};
  const seeHelp = `see '${PROGRAM} ${command.name} --help'`;
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv.map(argument => (NEGATIVE_NUMBER.test(argument) ? MARK + argument : argument)),
      options: Object.fromEntries(Object.keys(declared).map(name => [name, { type: 'string' as const }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CliError(`${command.name}: ${describeParseError(error, Object.keys(declared), command)}; ${seeHelp}`);
  }
  const options = Object.fromEntries(
    Object.entries(parsed.values).map(([name, value]) => [name, typeof value === 'string' ? unmark(value) : undefined]),
  );
  for (const [name, option] of Object.entries(declared)) {
    if (option.required && (options[name] === undefined || options[name].trim() === '')) {
      throw new CliError(`${command.name}: --${name} is required (${option.description})`);
    }
  }
  const expected = command.arguments ?? [];
  const positionals = parsed.positionals.map(unmark);
  if (positionals.length > expected.length) {
    throw new CliError(`${command.name}: unexpected argument '${positionals[expected.length]}'; ${seeHelp}`);
  }
  const missing = expected[positionals.length];
  if (missing) throw new CliError(`${command.name}: ${missing.name} is required (${missing.description})`);
  return { arguments: Object.fromEntries(expected.map((argument, index) => [argument.name, positionals[index]!])), options };
}

/** Node's parseArgs errors, reworded to name the flag and what to do. */
function describeParseError(error: unknown, names: readonly string[], command: CliCommand): string {
  const { code, message } = error as { code?: string; message: string };
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const known = names.length > 0 ? ` (it takes ${names.map(name => `--${name}`).join(', ')})` : ' (it takes no flags)';
    return `unknown option '${flag}'${suggest(flag.replace(/^-+/, ''), names, '--') || known}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = command.options?.[flag.replace(/^-+/, '')];
    return `${flag} needs a value${option ? ` (${option.placeholder}: ${option.description})` : ''}`;
  }
  return message.split('\n', 1)[0]!;
}

function suggest(given: string, names: readonly string[], prefix: string): string {
  const closest = closestName(given, names);
  return closest === undefined ? '' : ` (did you mean ${prefix}${closest}?)`;
}

function unmark(value: string): string {
  return value.startsWith(MARK) ? value.slice(MARK.length) : value;
}
