import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataDirectory } from './open-data-directory';

const root = mkdtempSync(join(tmpdir(), 'signalbox-data-folder-'));
const modeOf = (path: string) => statSync(path).mode & 0o777;
const environment = { SIGNALBOX_SERVER_SECRET: 'data-folder-test-secret' };

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openDataDirectory', () => {
  it('creates a missing data folder with mode 0700 and warns about nothing', () => {
    const warnings: string[] = [];
    const path = join(root, 'fresh');
    openDataDirectory(path, environment, { warn: message => warnings.push(message) });
    expect(modeOf(path)).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it('tightens an existing data folder with mode 0755 to 0700 and warns once, naming the old mode', () => {
    const warnings: string[] = [];
    const path = join(root, 'open');
    mkdirSync(path);
    chmodSync(path, 0o755);
    openDataDirectory(path, environment, { warn: message => warnings.push(message) });
    expect(modeOf(path)).toBe(0o700);
    expect(warnings).toEqual([`the data folder ${path} had mode 0755; it is now 0700 (owner only)`]);
    openDataDirectory(path, environment, { warn: message => warnings.push(message) });
    expect(warnings).toHaveLength(1);
  });

  it('writes the key-hashing secret it creates with mode 0600', () => {
    const path = join(root, 'secret');
    openDataDirectory(path, {}, { warn: () => undefined });
    expect(modeOf(join(path, 'server-secret'))).toBe(0o600);
  });

  it('derives the compaction sealing secret from the server secret: the same on every open, never the secret itself', () => {
    const path = join(root, 'conversations');
    const first = openDataDirectory(path, environment, { warn: () => undefined });
    const again = openDataDirectory(path, environment, { warn: () => undefined });
    const other = openDataDirectory(path, { SIGNALBOX_SERVER_SECRET: 'another-secret' }, { warn: () => undefined });
    expect(first.conversationSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(again.conversationSecret).toBe(first.conversationSecret);
    expect(first.conversationSecret).not.toBe(first.serverSecret);
    expect(other.conversationSecret).not.toBe(first.conversationSecret);
  });
});
