import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { GET } from "@/app/api/blockchains/route";
import { publicRpcUrl } from "@/lib/chains/serialize";
import { devnetContracts, devnetRpcUrl, setDevnetRpcUrl } from "@/lib/chains/catalog";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
});

const previousRpc = devnetRpcUrl();
afterEach(() => setDevnetRpcUrl(previousRpc ?? undefined));

describe("GET /api/blockchains/", () => {
  test("lists the five networks in the bare page shape with their tokens", async () => {
    const res = await call(GET, "GET", "/api/blockchains/", { token: merchant.access });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(res.body.count).toBe(5);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
    expect(res.body.results.map((c: any) => [c.id, c.slug])).toEqual([
      [1, "ethereum"],
      [2, "base"],
      [3, "polygon"],
      [4, "arbitrum"],
      [5, "optimism"],
    ]);
    const base = res.body.results[1];
    expect(base).toEqual({
      id: 2,
      slug: "base",
      name: expect.any(String),
      chain_id: 31337,
      rpc_url: expect.toSatisfy((v: unknown) => v === null || typeof v === "string"),
      default_confirmations: 3,
      native_currency: "ETH",
      tokens: [
        { symbol: "ETH", address: null, decimals: 18 },
        { symbol: "USDC", address: devnetContracts.USDC, decimals: 6 },
        { symbol: "USDT", address: devnetContracts.USDT, decimals: 6 },
      ],
    });
    expect(res.body.results[2].native_currency).toBe("POL");
  });

  test("serves the local devnet RPC URL whole", async () => {
    setDevnetRpcUrl("http://127.0.0.1:8545");
    const res = await call(GET, "GET", "/api/blockchains/", { token: merchant.access });
    expect(res.body.results.every((c: any) => c.rpc_url === "http://127.0.0.1:8545")).toBe(true);
  });

  test("pages like every list", async () => {
    const res = await call(GET, "GET", "/api/blockchains/", { token: merchant.access, query: { page: 2, page_size: 2 } });
    expect(res.body.count).toBe(5);
    expect(res.body.results.map((c: any) => c.slug)).toEqual(["polygon", "arbitrum"]);
    expect(res.body.next).toBe("/api/blockchains/?page=3&page_size=2");
    expect(res.body.previous).toBe("/api/blockchains/?page=1&page_size=2");
  });

  test("needs a credential", async () => {
    const res = await call(GET, "GET", "/api/blockchains/");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_TOKEN");
  });

  test("a read-only API key may list them", async () => {
    const { key } = await createApiKeyFor(merchant, { preset: "read_only" });
    const res = await call(GET, "GET", "/api/blockchains/", { token: key });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
  });
});

describe("publicRpcUrl", () => {
  test.each([
    ["https://base-mainnet.g.alchemy.com/v2/abcdef123456", "https://base-mainnet.g.alchemy.com"],
    ["https://mainnet.infura.io/v3/0123456789abcdef", "https://mainnet.infura.io"],
    ["https://user:secret@node.example.com:8545/rpc?apikey=xyz", "https://node.example.com:8545"],
    ["wss://eth.example.com/ws/key", "wss://eth.example.com"],
    ["https://mainnet.base.org", "https://mainnet.base.org"],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545"],
    ["http://localhost:8545/", "http://localhost:8545"],
    ["http://user:pw@127.0.0.1:8545/path", "http://127.0.0.1:8545/path"],
    ["not a url", null],
    ["file:///etc/passwd", null],
    [null, null],
  ])("%s → %s", (input, expected) => {
    expect(publicRpcUrl(input)).toBe(expected);
  });
});
