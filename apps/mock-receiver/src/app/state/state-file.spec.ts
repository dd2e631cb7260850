import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMPTY_STATE } from './receiver-state';
import { readStateFile, writeFileAtomic } from './state-file';

describe('state file', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'receiver-state-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is written atomically into a directory it creates, leaving no temporary file', async () => {
    const file = path.join(dir, 'nested', 'receiver-state.json');
    await writeFileAtomic(file, JSON.stringify(EMPTY_STATE));
    await writeFileAtomic(file, JSON.stringify({ ...EMPTY_STATE, seen: [{ webhookId: 'a', bodyHash: 'b' }] }));
    expect(await readdir(path.dirname(file))).toEqual(['receiver-state.json']);
    expect(JSON.parse(await readFile(file, 'utf8')).seen).toEqual([{ webhookId: 'a', bodyHash: 'b' }]);
  });

  it('reads back what was written, and tells a missing file from an unreadable one', async () => {
    const file = path.join(dir, 'state.json');
    expect(await readStateFile(file)).toEqual({ kind: 'missing' });
    await writeFileAtomic(file, JSON.stringify(EMPTY_STATE));
    expect(await readStateFile(file)).toEqual({ kind: 'loaded', snapshot: EMPTY_STATE });
    await writeFile(file, '{"version":1,"orders":[');
    expect((await readStateFile(file)).kind).toBe('unreadable');
    await writeFile(file, '{"version":2}');
    expect(await readStateFile(file)).toEqual({ kind: 'unreadable', reason: 'not a receiver state file (version 1)' });
  });
});
