import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, chosen by the kernel. Tests that start servers on ports
 * of their own use it instead of a random number, which can fall in the ephemeral range (32768+ on
 * Linux) and meet a port some client socket holds.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
