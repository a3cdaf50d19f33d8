/** A model double's port: listen on it, stop (refusing connections), listen again on the same port. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const startListening = async (server: Server, port: number) => {
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve, reject) => {
      server.close(error => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  await listen(port);
  const bound = (server.address() as AddressInfo).port;
  let listening = true;

  const refuseConnections = async () => {
    if (!listening) return;
    listening = false;
    await stopListening();
  };
  return {
    port: bound,
    refuseConnections,
    acceptConnections: async () => {
      if (listening) return;
      await listen(bound);
      listening = true;
    },
    close: refuseConnections,
  };
};
harden(startListening);
