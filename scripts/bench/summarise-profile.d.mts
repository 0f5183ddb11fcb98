// Types of summarise-profile.mjs, for the tests that import it.

export type ProfileCallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number; scriptId?: string };
export type CpuProfile = {
  nodes: Array<{ id: number; callFrame: ProfileCallFrame; children?: number[]; hitCount?: number }>;
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
};
export type ProfileSummary = {
  totalUs: number;
  busyUs: number;
  packages: Array<{ name: string; selfUs: number; share: number }>;
  functions: Array<{ name: string; where: string; package: string; selfUs: number; share: number }>;
};

export function packageOf(callFrame: ProfileCallFrame): string;
export function summariseProfile(profile: CpuProfile, options?: { top?: number }): ProfileSummary;
export function formatProfileSummary(summary: ProfileSummary): string;
export function mainThreadProfile(names: string[]): string | undefined;
