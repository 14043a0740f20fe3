/**
 * The running server the running-server-*.test.ts files fault: one `next start` per file (starting
 * one is the costly part, so each file runs several scenarios against it) on a devnet of its own
 * (DEVNET_RPC_URL), reached through a TCP proxy so a test can cut the server off from the chain
 * without the chain losing state; a webhook receiver that fails on demand, with the short retry
 * schedule and attempt timeout its scenario expects; and a merchant with a base wallet. Split over files so vitest's
 * workers run the scenarios side by side.
 */
import { expect } from "vitest";
import { startDevnet, type Devnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { randomAddress } from "../helpers/factories";
import { ensureBuilt, freePort, startServer, type ServerProcess } from "../helpers/server";
import { TcpProxy } from "../helpers/tcp-proxy";
import { FlakyReceiver, http, signUp, type Account, type HttpResult } from "./support";
import { attemptTimeoutSeconds, scheduleSeconds } from "./webhook-receiver";

export interface RunningServer {
  /** Replaced by a test that restarts the devnet; stop() stops the current one. */
  devnet: Devnet;
  proxy: TcpProxy;
  server: ServerProcess;
  receiver: FlakyReceiver;
  merchant: Account;
  /** Every status `call` saw, for the file's "no 5xx other than 503" check. */
  statuses: number[];
  /** One request as the merchant, its status recorded. */
  call(method: string, path: string, json?: unknown): Promise<HttpResult>;
  /** Answers 5xx other than 503 SERVICE_UNAVAILABLE (a devnet that is gone) among `call`'s. */
  fiveXx(): number;
  stop(): Promise<void>;
}

/** Starts it all; what had started is stopped again when a later step fails. */
export async function startRunningServer(): Promise<RunningServer> {
  await ensureBuilt();
  const started: Array<() => Promise<void>> = [];
  const stopStarted = async () => {
    for (const stop of [...started].reverse()) await stop();
  };
  try {
    let devnet = await startDevnet();
    started.push(() => devnet.stop());
    await ensureGatewayContracts(devnet.rpcUrl);
    const proxy = new TcpProxy(await freePort(), devnet.port);
    await proxy.open();
    started.push(() => proxy.close());
    const receiver = await FlakyReceiver.start();
    started.push(() => receiver.close());
    const server = await startServer({
      env: {
        DEVNET: "start",
        DEVNET_RPC_URL: proxy.url,
        JOBS_DRIVER: "local",
        WEBHOOK_RETRY_SCHEDULE_SECONDS: scheduleSeconds.join(","),
        WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: String(attemptTimeoutSeconds),
        RATE_LIMIT_STANDARD_PER_HOUR: "100000",
        LOG_LEVEL: "warn",
      },
    });
    started.push(() => server.stop());
    const merchant = await signUp(server);
    const statuses: number[] = [];
    const running: RunningServer = {
      get devnet() {
        return devnet;
      },
      set devnet(replacement) {
        devnet = replacement;
      },
      proxy,
      server,
      receiver,
      merchant,
      statuses,
      async call(method, path, json) {
        const res = await http(server, method, path, { token: merchant.access, json });
        statuses.push(res.status);
        return res;
      },
      fiveXx: () => statuses.filter((s) => s >= 500 && s !== 503).length,
      stop: stopStarted,
    };
    const wallet = await running.call("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 1 });
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(201);
    return running;
  } catch (error) {
    await stopStarted();
    throw error;
  }
}
