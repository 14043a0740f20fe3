/** A chain's stages with their own retry (lib/engine/chain-tick.ts `StageRetries`): each backs off on its own and is forgotten once it runs. */
import { describe, expect, test } from "vitest";
import { StageRetries, StageWaitingToRetry } from "@/lib/engine/chain-tick";

const policy = { baseMs: 1_000, capMs: 30_000 };
const noJitter = () => 1;
const refused = new Error("eth_getLogs refused");

describe("StageRetries", () => {
  test("a failed scan waits 1 s, then 2 s, 4 s … after each further failure; the stages that ran wait for nothing", () => {
    const retries = new StageRetries(policy);
    retries.note({ failures: [{ stage: "scan", error: refused }], ran: ["attribute", "head", "reorg-recheck", "orders", "refunds"] }, 10_000, noJitter);
    expect([...retries.waiting(10_000)]).toEqual([["scan", { error: refused, retryAt: 11_000 }]]);
    expect(retries.waiting(10_999).has("scan")).toBe(true);
    expect(retries.waiting(11_000).size).toBe(0);

    retries.note({ failures: [{ stage: "scan", error: refused }], ran: [] }, 11_000, noJitter);
    expect(retries.waiting(11_000).get("scan")?.retryAt).toBe(13_000);
    retries.note({ failures: [{ stage: "scan", error: refused }], ran: [] }, 13_000, noJitter);
    expect(retries.waiting(13_000).get("scan")?.retryAt).toBe(17_000);
  });

  test("a tick in which the stage only waited does not extend its backoff", () => {
    const retries = new StageRetries(policy);
    retries.note({ failures: [{ stage: "scan", error: refused }], ran: [] }, 0, noJitter);
    retries.note({ failures: [{ stage: "scan", error: new StageWaitingToRetry("scan", 1_000, refused) }], ran: ["orders"] }, 500, noJitter);
    expect(retries.waiting(500).get("scan")).toEqual({ error: refused, retryAt: 1_000 });
  });

  test("a stage that runs again is forgotten; stages without their own retry are never held", () => {
    const retries = new StageRetries(policy);
    retries.note(
      {
        failures: [
          { stage: "scan", error: refused },
          { stage: "attribute", error: refused },
          { stage: "head", error: refused },
        ],
        ran: [],
      },
      0,
      noJitter,
    );
    expect([...retries.waiting(0).keys()].sort()).toEqual(["attribute", "scan"]);
    retries.note({ failures: [], ran: ["scan"] }, 5_000, noJitter);
    expect([...retries.waiting(0).keys()]).toEqual(["attribute"]);
  });

  test("forget: after a tick the chain did not answer, every stage is tried again", () => {
    const retries = new StageRetries(policy);
    retries.note({ failures: [{ stage: "scan", error: refused }], ran: ["head", "orders"] }, 0, noJitter);
    retries.forget();
    expect(retries.waiting(0).size).toBe(0);
  });
});
