import { PROGRAM, type CliCommand } from './cli-command';

/** The command line of one command, as the README documents it: required flags bare, optional ones in brackets. */
export function formatCommandLine(command: CliCommand): string {
  const argumentNames = (command.arguments ?? []).map(argument => argument.name);
  const options = Object.entries(command.options ?? {}).map(([name, option]) =>
    option.required ? `--${name} ${option.placeholder}` : `[--${name} ${option.placeholder}]`,
  );
  return [PROGRAM, command.name, ...argumentNames, ...options].join(' ');
}

/** `--help` of one command: its line, what it does, each argument and flag. */
export function formatCommandUsage(command: CliCommand): string {
  const rows = [
    ...(command.arguments ?? []).map(argument => [argument.name, argument.description] as const),
    ...Object.entries(command.options ?? {}).map(
      ([name, option]) => [`--${name} ${option.placeholder}`, `${option.description}${option.required ? ' (required)' : ''}`] as const,
    ),
    ['-h, --help', 'show this help'] as const,
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `Usage: ${formatCommandLine(command)}`,
    '',
    command.summary,
    '',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    '',
    'Works on the data folder SIGNALBOX_DATA_DIR (default ./data).',
  ].join('\n');
}

/** `--help` of the program, or of one group of commands (`keys --help`). */
export function formatProgramUsage(commands: readonly CliCommand[], group?: string): string {
  const listed = group === undefined ? commands : commands.filter(command => command.name.split(' ')[0] === group);
  const intro =
    group === undefined
      ? [
          `Usage: ${PROGRAM} [command]`,
          '',
          'With no command, starts the server. Environment: PORT (default 8080), HOST (default 127.0.0.1),',
          'SIGNALBOX_CONFIG (a .json, .yaml or .yml file), SIGNALBOX_DEMO_KEY, SIGNALBOX_DATA_DIR (default ./data),',
          'SIGNALBOX_ADMIN_TOKEN, SIGNALBOX_SERVER_SECRET, LOG_LEVEL.',
          '',
          'Commands (on the data folder; results are printed as JSON):',
        ]
      : [`Usage: ${PROGRAM} ${group} <command>`, ''];
  return [
    ...intro,
    ...listed.flatMap(command => [`  ${formatCommandLine(command)}`, `      ${command.summary}`]),
    '',
    `'${PROGRAM} <command> --help' (such as '${PROGRAM} keys create --help') explains a command's flags.`,
  ].join('\n');
}
