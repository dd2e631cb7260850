import { Writable } from 'node:stream';

/**
 * Sets `env` in process.env (undefined deletes a variable) for an app a test creates, whose config
 * is read from process.env; returns the function that puts the previous values back.
 */
export function setEnv(env: Record<string, string | undefined>): () => void {
  const previous: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    previous[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** A log destination for an app under test that keeps every line written to it, in order. */
export function captureLogLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter((line) => line.length > 0));
      callback();
    },
  });
  return { lines, destination };
}
