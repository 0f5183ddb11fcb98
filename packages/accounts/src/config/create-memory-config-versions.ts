import type { ConfigVersion, ConfigVersionStore } from './config-version-store';

/** Config versions in process memory (the memory account store's): gone on restart. */
export function createMemoryConfigVersions(): ConfigVersionStore {
  const versions: ConfigVersion[] = [];
  const copy = (version: ConfigVersion): ConfigVersion => structuredClone(version);
  return {
    async latestConfigVersion() {
      return versions.length;
    },
    async getConfigVersion(version) {
      const found = versions[version - 1];
      return found && copy(found);
    },
    async listConfigVersions({ before, limit }) {
      const end = before === undefined ? versions.length : Math.min(before - 1, versions.length);
      return versions
        .slice(Math.max(0, end - limit), Math.max(0, end))
        .reverse()
        .map(({ document: _document, diff, ...summary }) => ({ ...summary, changes: diff.length }));
    },
    async appendConfigVersion(version, expected, now) {
      if (versions.length !== expected) return undefined;
      const written: ConfigVersion = { ...structuredClone(version), version: expected + 1, createdAt: now };
      versions.push(written);
      return copy(written);
    },
  };
}
