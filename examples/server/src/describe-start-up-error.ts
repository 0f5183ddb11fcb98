import { relative, resolve } from 'node:path';
import { ConfigFileError, StartUpError } from './start-up-error';

/** File system failures on the data folder, in the words of someone choosing one. */
const DATA_DIRECTORY_PROBLEMS: Record<string, string> = {
  EACCES: 'the data folder cannot be written (permission denied)',
  EPERM: 'the data folder cannot be written (operation not permitted)',
  EROFS: 'the data folder is on a read-only file system',
  ENOTDIR: 'the path goes through a file, not a folder',
  EEXIST: 'a file is in the way: the data folder must be a folder',
};

/** The settings a start-up message may point at. */
export type StartUpSettings = { port?: number; host?: string; dataDirectory?: string };

/**
 * One line for an error that stopped the server from starting, naming the setting to change:
 * `SIGNALBOX_CONFIG=/path/x.yaml: routes.0…`, `PORT=8080: … in use`. A stack is added only when
 * `verbose` (LOG_LEVEL=debug or trace), for errors that are not the user's to fix.
 */
export function describeStartUpError(error: unknown, settings: StartUpSettings = {}, verbose = false): string {
  if (error instanceof ConfigFileError) return `SIGNALBOX_CONFIG=${error.path}: ${error.detail}`;
  if (error instanceof StartUpError) return error.message;
  const system = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (system?.syscall === 'listen' || system?.syscall === 'getaddrinfo') return describeListenError(system, settings);
  const dataProblem = system?.code === undefined ? undefined : DATA_DIRECTORY_PROBLEMS[system.code];
  if (dataProblem && settings.dataDirectory !== undefined && isInside(system.path, settings.dataDirectory)) {
    return `SIGNALBOX_DATA_DIR=${settings.dataDirectory}: ${dataProblem} (${system.code} on ${system.path}); point it at a folder you own`;
  }
  const message = oneLine(error instanceof Error ? error.message : String(error));
  const stack = verbose && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return `The server could not start: ${message}${stack}`;
}

function describeListenError(error: NodeJS.ErrnoException & { address?: string; port?: number }, settings: StartUpSettings): string {
  const host = settings.host ?? error.address ?? '127.0.0.1';
  const port = settings.port ?? error.port;
  switch (error.code) {
    case 'EADDRINUSE':
      return `PORT=${port}: ${host}:${port} is already in use (another server?); set PORT to a free port (PORT=0 picks one) or HOST to another address`;
    case 'EADDRNOTAVAIL':
      return `HOST=${host}: not an address of this machine; use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)`;
    case 'EACCES':
      return `PORT=${port}: not allowed to listen on ${host}:${port} (ports below 1024 need privileges); set PORT to 1024 or above`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${host}: this host name does not resolve; use an IP address such as 127.0.0.1`;
    default:
      return `Cannot listen on ${host}:${port} (PORT, HOST): ${oneLine(error.message)}`;
  }
}

function isInside(path: string | undefined, directory: string): boolean {
  if (path === undefined) return false;
  const from = relative(resolve(directory), resolve(path));
  return from === '' || (!from.startsWith('..') && !from.startsWith('/'));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
