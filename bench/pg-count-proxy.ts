import { createServer, connect, type Server, type Socket } from "node:net";

/**
 * A pass-through TCP proxy in front of PostgreSQL that counts what clients send, on the wire, so
 * it sees whatever the app sends (drizzle, postgres.js, BEGIN/COMMIT) without touching it:
 * - statements: every Execute ('E') of the extended protocol and every simple Query ('Q');
 * - round trips: every point where the client waits for the server: Sync ('S'), Flush ('H')
 *   and simple Query (a statement sent unnamed with parameters costs two: postgres.js first has
 *   the server describe it);
 * - parses: Parse ('P') messages, i.e. statements the server plans afresh rather than reuses.
 */
export interface WireCounts {
  statements: number;
  roundTrips: number;
  parses: number;
}

export interface CountingProxy {
  /** postgres:// URL pointing at the proxy instead of the server. */
  url(target: string): string;
  counts(): WireCounts;
  close(): Promise<void>;
}

const untypedCodes = new Set([80877103 /* SSLRequest */, 80877104 /* GSSENCRequest */]);

export async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  const counts: WireCounts = { statements: 0, roundTrips: 0, parses: 0 };
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let startup = true;
    let pending: Buffer = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          startup = untypedCodes.has(pending.readInt32BE(4)); // a startup message follows an SSL/GSS request
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) break;
        const type = pending[0];
        if (type === 0x45 /* E */ || type === 0x51 /* Q */) counts.statements++;
        if (type === 0x53 /* S */ || type === 0x48 /* H */ || type === 0x51 /* Q */) counts.roundTrips++;
        if (type === 0x50 /* P */) counts.parses++;
        pending = pending.subarray(length + 1);
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url(url) {
      const proxied = new URL(url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(port);
      return proxied.toString();
    },
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
