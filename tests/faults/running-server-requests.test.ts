import { afterAll, beforeAll, vi } from "vitest";
import { buildTimeoutMs } from "../helpers/server";
import { malformedRequestSuite } from "./malformed-requests";
import { startRunningServer, type RunningServer } from "./running-server";
import { flakyReceiverSuite } from "./webhook-receiver";

// Each scenario waits on events (answers, retries), each bounded; with three test files at a time
// beside this one's server and devnet, a scenario on PGlite takes longer than the suite's 60 s.
vi.setConfig({ testTimeout: 180_000 });

// Requests against a running `next start` (tests/faults/running-server.ts): hundreds of malformed
// ones, then a webhook receiver that fails and recovers. The sandbox tools' scenarios have a server
// of their own (running-server-devnet.test.ts), so the two files run side by side.

let running: RunningServer;

beforeAll(async () => {
  running = await startRunningServer();
}, buildTimeoutMs);

afterAll(async () => {
  await running?.stop();
});

malformedRequestSuite({ server: () => running.server });
flakyReceiverSuite({ server: () => running.server, receiver: () => running.receiver });
