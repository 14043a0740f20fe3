import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { env } from "@/lib/env";
import { capturePeerAddresses, clientIpOf, peerAddressHeader } from "@/lib/http/client-address";

const original = env.TRUST_PROXY;
afterEach(() => {
  env.TRUST_PROXY = original;
});

const req = (headers: Record<string, string>) => new Request("http://localhost/", { headers });

describe("client address (issue 13 item 2)", () => {
  test("by default X-Forwarded-For is not trusted: the TCP peer decides", () => {
    expect(original).toBe(0);
    env.TRUST_PROXY = 0;
    expect(clientIpOf(req({ [peerAddressHeader]: "198.51.100.4", "x-forwarded-for": "1.2.3.4" }))).toBe("198.51.100.4");
    expect(clientIpOf(req({ [peerAddressHeader]: "198.51.100.4", "x-forwarded-for": "5.6.7.8" }))).toBe("198.51.100.4");
    expect(clientIpOf(req({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "1.2.3.4" }))).toBe("unknown");
    expect(clientIpOf(req({ [peerAddressHeader]: "::ffff:198.51.100.4" }))).toBe("198.51.100.4");
  });

  test("with N trusted proxies the address is the N-th X-Forwarded-For entry from the right", () => {
    env.TRUST_PROXY = 1;
    // The client wrote "6.6.6.6" itself; the one proxy appended what it saw.
    expect(clientIpOf(req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9", [peerAddressHeader]: "10.0.0.2" }))).toBe("203.0.113.9");
    env.TRUST_PROXY = 2;
    expect(clientIpOf(req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.5", [peerAddressHeader]: "10.0.0.2" }))).toBe("203.0.113.9");
    // Fewer entries than proxies: the furthest known.
    expect(clientIpOf(req({ "x-forwarded-for": "203.0.113.9", [peerAddressHeader]: "10.0.0.2" }))).toBe("203.0.113.9");
    // No header at all: the peer.
    expect(clientIpOf(req({ [peerAddressHeader]: "10.0.0.2" }))).toBe("10.0.0.2");
  });

  test("the server stamps the socket's address and overwrites a forged one", async () => {
    await capturePeerAddresses();
    env.TRUST_PROXY = 0;
    const seen: string[] = [];
    const server = createServer((request, response) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === "string") headers.set(k, v);
      seen.push(clientIpOf(new Request("http://localhost/", { headers })));
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await (await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-forwarded-for": "6.6.6.6", [peerAddressHeader]: "7.7.7.7" } })).text();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(seen).toEqual(["127.0.0.1"]);
  });
});
