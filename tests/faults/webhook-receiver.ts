import { beforeAll, describe, expect, test } from "vitest";
import { randomAddress } from "../helpers/factories";
import type { ServerProcess } from "../helpers/server";
import { http, printSummary, signUp, waitFor, type Account, type FlakyReceiver } from "./support";

// A merchant's receiver that answers 500, then hangs past the delivery deadline, then refuses
// connections, then recovers: the retries follow the (short) schedule and the log shows every
// attempt. Registered by running-server-requests.test.ts, whose server (running-server.ts) runs with this schedule.

/** WEBHOOK_RETRY_SCHEDULE_SECONDS of the shared server. */
export const scheduleSeconds = [2, 3, 4, 2, 2];
/** WEBHOOK_ATTEMPT_TIMEOUT_SECONDS of the shared server: the hang is cut after this, not the default 10 s. */
export const attemptTimeoutSeconds = 4;
let server: ServerProcess;
let receiver: FlakyReceiver;
let merchant: Account;

/** Registers the flaky-receiver scenario against the file's shared server and receiver. */
export function flakyReceiverSuite(shared: { server(): ServerProcess; receiver(): FlakyReceiver }) {
  describe("a webhook receiver that fails, then recovers", () => {
    beforeAll(async () => {
      server = shared.server();
      receiver = shared.receiver();
      merchant = await signUp(server);
    });

    test("receiver answers 500, times out, refuses connections, then recovers: retries follow the schedule and every attempt is logged", async () => {
      const token = merchant.access;
      const statuses: number[] = [];
      const api = async (method: string, path: string, json?: unknown) => {
        const res = await http(server, method, path, { token, json });
        statuses.push(res.status);
        return res;
      };
      expect((await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 1 })).status).toBe(201);
      const endpoint = await api("POST", "/api/webhook-endpoints/", { url: receiver.url("/flaky"), events: ["payment.confirmed"] });
      expect(endpoint.status).toBe(201);
      const endpointId = endpoint.body.data.id;

      receiver.reply((_, index) => (index === 0 ? { status: 500 } : index === 1 ? { hang: true } : { status: 200 }));
      const order = await waitFor("an order", async () => {
        const res = await api("POST", "/api/payment-orders/", { amount: "5", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 });
        return res.status === 201 && res.body.data;
      });
      expect((await api("POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {})).status).toBe(201);

      type Attempt = { attempted_at: string; status_code: number | null; duration_ms: number; error: string | null };
      const deliveries = async () =>
        (await api("GET", `/api/webhook-endpoints/${endpointId}/deliveries/`)).body.results as Array<{
          status: string;
          attempts: number;
          attempt_log: Attempt[];
        }>;
      // Attempt 2 hangs; once it is in flight the receiver goes down, so attempt 3 is refused.
      await waitFor("the second attempt to arrive (and hang)", async () => receiver.requests.length >= 2, 60_000, 100);
      await receiver.down();
      await waitFor("the third attempt (refused) in the log", async () => ((await deliveries())[0]?.attempt_log.length ?? 0) >= 3, 60_000, 200);
      await receiver.up();
      const delivery = await waitFor(
        "the delivery to succeed",
        async () => {
          const [latest] = await deliveries();
          return latest?.status === "succeeded" && latest;
        },
        60_000,
        200,
      );

      const log = delivery.attempt_log;
      expect(log.map((a) => a.status_code)).toEqual([500, null, null, 200]);
      // A timeout says so (its duration shows it anyway); a loopback receiver's other network failures read alike (no port probing, issue 13).
      expect(log[1]!.error).toBe(`Timed out: no answer within ${attemptTimeoutSeconds * 1000} ms.`);
      expect(log[1]!.duration_ms).toBeGreaterThanOrEqual(attemptTimeoutSeconds * 900);
      expect(log[2]!.error).toBe("The receiver on this machine could not be reached.");
      expect(delivery.attempts).toBe(4);

      // Each retry waits its scheduled delay (±20 % jitter) after the previous attempt ended; the
      // delivery loop polls every second, so allow some lateness on a busy machine.
      const gaps = log.slice(1).map((a, i) => (Date.parse(a.attempted_at) - (Date.parse(log[i]!.attempted_at) + log[i]!.duration_ms)) / 1000);
      console.log(`[faults] retry gaps (s): ${gaps.map((g, i) => `${g.toFixed(2)} (scheduled ${scheduleSeconds[i]} ±20 %)`).join(", ")}`);
      for (const [i, gap] of gaps.entries()) {
        expect(gap, `gap before attempt ${i + 2}`).toBeGreaterThanOrEqual(scheduleSeconds[i]! * 0.8 - 0.3);
        expect(gap, `gap before attempt ${i + 2}`).toBeLessThanOrEqual(scheduleSeconds[i]! * 1.2 + 3);
      }

      // The receiver saw the 500, the hung request and the success: one webhook-id throughout.
      const ids = new Set(receiver.requests.map((r) => r.headers["webhook-id"]));
      const acknowledged = receiver.requests.filter((_, i) => i >= 2).length;
      printSummary("webhook receiver 500 / timeout / refused / recovered", {
        acknowledged,
        found: log.length,
        lost: delivery.status === "succeeded" ? 0 : 1,
        duplicated: acknowledged - 1,
        "5xx": statuses.filter((s) => s >= 500).length,
      });
      expect(receiver.requests).toHaveLength(3);
      expect(ids.size).toBe(1);
      expect(acknowledged).toBe(1);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
    });
  });
}
