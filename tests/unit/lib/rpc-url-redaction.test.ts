/** RPC URLs carry keys: they are cut to their origin in errors and in every log line. */
import { describe, expect, test } from "vitest";
import { log } from "@/lib/log";
import { redactUrls } from "@/lib/redact";
import { captureOutput } from "../../helpers/capture-output";

describe("RPC URLs with keys never reach logs or merchants", () => {
  test("paths, queries and credentials of URLs are cut to the origin; loopback devnet URLs stay", () => {
    const text =
      "HTTP request failed. URL: https://base-mainnet.g.alchemy.com/v2/AbCdEfSeCrEt Details: 401 and wss://mainnet.infura.io/ws/v3/key123, https://user:pw@rpc.example/ and https://rpc.example/?apikey=zz";
    const out = redactUrls(text);
    for (const secret of ["AbCdEfSeCrEt", "key123", "user:pw", "apikey=zz"]) expect(out).not.toContain(secret);
    expect(out).toContain("https://base-mainnet.g.alchemy.com/…");
    expect(redactUrls("URL: http://127.0.0.1:8545/")).toBe("URL: http://127.0.0.1:8545/");
  });

  test("a log line carrying such an error is redacted", async () => {
    const { output } = await captureOutput(async () => log.error("scan failed", { error: "fetch failed: https://eth-mainnet.example/v2/SUPERSECRETKEY" }));
    expect(output).toContain("scan failed");
    expect(output).not.toContain("SUPERSECRETKEY");
  });
});
