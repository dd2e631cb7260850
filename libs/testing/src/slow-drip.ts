import net from 'node:net';

/**
 * Sends `head` (request line, headers and the start of a body) to 127.0.0.1:`port`, then one byte
 * every `intervalMs` for as long as the connection stays open: a slow-drip client. Resolves with
 * everything the server sent once it closes the connection (the caller's test timeout bounds the
 * wait when it never does).
 */
export async function slowDripRequest(port: number, head: string, intervalMs = 50): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += String(chunk)));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
  socket.write(head);
  const drip = setInterval(() => socket.writable && socket.write(' '), intervalMs);
  try {
    await closed;
  } finally {
    clearInterval(drip);
  }
  return received;
}
