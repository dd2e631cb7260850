import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isStateSnapshot, ReceiverStateSnapshot } from './receiver-state';

export type StateFileRead =
  | { kind: 'missing' }
  | { kind: 'loaded'; snapshot: ReceiverStateSnapshot }
  | { kind: 'unreadable'; reason: string };

export async function readStateFile(file: string): Promise<StateFileRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: (error as Error).message };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isStateSnapshot(parsed) ? { kind: 'loaded', snapshot: parsed } : { kind: 'unreadable', reason: 'not a receiver state file (version 1)' };
  } catch (error) {
    return { kind: 'unreadable', reason: `invalid JSON: ${(error as Error).message}` };
  }
}

/**
 * Writes `text` to a temporary file beside `file`, flushes it to disk and renames it over `file`,
 * so a crash leaves either the old or the new state, never half of one.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
