// What a process has used, read from Linux's /proc: CPU time (user + system) and resident memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks a second (`getconf CLK_TCK`), the unit of /proc/PID/stat's times; 100 on Linux almost always. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The fields of a /proc/PID/stat text after the command name (which may hold spaces), so index 0 is field 3 (state). */
function statFields(stat) {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The sum of two tick counts of `fields`, in microseconds. */
const microseconds = (fields, first, second) => ((Number(fields[first]) + Number(fields[second])) * 1e6) / TICKS_PER_SECOND;

/** CPU time the process `pid` has used so far, user + system, in microseconds (10 ms resolution at 100 ticks/s). */
export function readCpuMicroseconds(pid) {
  return microseconds(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8')), 11, 12);
}

/** CPU time of the children a process has waited for (cutime + cstime), in microseconds, from the text of its /proc/PID/stat. */
export function readChildrenCpuMicroseconds(stat) {
  return microseconds(statFields(stat), 13, 14);
}

/** Resident set size of the process `pid` in bytes (VmRSS of /proc/PID/status). */
export function readRssBytes(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}
