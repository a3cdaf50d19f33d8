/**
 * Whether anything at a server's address takes a TCP connection: what tells
 * a server that took the request and said nothing (a model still loading)
 * from an address where the connection itself went nowhere (a firewall that
 * drops it, a machine that is down), when a request to it timed out.
 */
import { connect } from 'node:net';

/** The port an address's URL names, else its scheme's. */
const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** True when a connection to `address`'s host and port is made within `ms`; false otherwise. */
export const takesConnection = (address: string, ms: number): Promise<boolean> =>
  new Promise(resolve => {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      resolve(false);
      return;
    }
    // `[::1]` is a URL's spelling of an IPv6 host; the socket wants the bare address.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const socket = connect({ host, port: portOf(url) });
    const done = (taken: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(taken);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
harden(takesConnection);
