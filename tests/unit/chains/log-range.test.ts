/** The eth_getLogs refusals of real providers, each read for what it asks (a stated limit, a suggested range, fewer blocks). */
import { describe, expect, test } from "vitest";
import { InvalidParamsRpcError, RpcRequestError } from "viem";
import { logRangeAdvice } from "@/lib/chains/log-range";
import { logRefusals } from "../../helpers/rpc-proxy";

/** As viem throws it: the provider's JSON-RPC error wrapped in viem's typed error. */
const thrown = (error: { code: number; message: string }) => new InvalidParamsRpcError(new RpcRequestError({ body: {}, error, url: "http://provider" }));

describe("logRangeAdvice", () => {
  test("Alchemy's response-size refusal: the block range it names", () => {
    expect(logRangeAdvice(thrown(logRefusals.alchemy(0x100n, 0x1f3n)))).toEqual({ kind: "resultCount", maxBlocks: null, suggestedTo: 0x1f3n });
  });
  test("Infura's result count: fewer blocks, no limit remembered", () => {
    expect(logRangeAdvice(thrown(logRefusals.infura()))).toEqual({ kind: "resultCount", maxBlocks: null, suggestedTo: null });
  });
  test("QuickNode's and geth's stated block-range limits", () => {
    expect(logRangeAdvice(thrown(logRefusals.quicknode(10_000)))).toEqual({ kind: "blockRange", maxBlocks: 10_000n, suggestedTo: null });
    expect(logRangeAdvice(thrown(logRefusals.geth(1000)))).toEqual({ kind: "blockRange", maxBlocks: 1000n, suggestedTo: null });
  });
  test("Ankr's range too wide, without a figure", () => {
    expect(logRangeAdvice(thrown(logRefusals.ankr()))).toEqual({ kind: "blockRange", maxBlocks: null, suggestedTo: null });
  });
  test("other errors are not range refusals", () => {
    expect(logRangeAdvice(new Error("fetch failed"))).toBeNull();
    expect(logRangeAdvice(thrown({ code: -32603, message: "internal error" }))).toBeNull();
    expect(logRangeAdvice(thrown({ code: 429, message: "Too Many Requests: rate limit exceeded" }))).toBeNull();
  });
});
