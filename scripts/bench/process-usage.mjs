// What a process has used, read from Linux's /proc: CPU time (user + system) and resident memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks a second (`getconf CLK_TCK`), the unit of /proc/PID/stat's times; 100 on Linux almost always. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The fields of /proc/PID/stat after the command name (which may hold spaces), so index 0 is field 3 (state). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time the process `pid` has used so far, user + system, in microseconds (10 ms resolution at 100 ticks/s). */
export function readCpuMicroseconds(pid) {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/** CPU time of the children `pid` has waited for (cutime + cstime), in microseconds. */
export function readChildrenCpuMicroseconds(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1e6) / TICKS_PER_SECOND;
}

/** Resident set size of the process `pid` in bytes (VmRSS of /proc/PID/status). */
export function readRssBytes(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}
