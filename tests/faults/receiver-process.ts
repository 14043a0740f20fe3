/** Webhook receivers in a child process (no vitest imports: the benchmark uses it too). */
import { spawn } from "node:child_process";
import path from "node:path";
import type { ReceiverBehaviour } from "./fixtures/receivers";

/** One request a receiver in the receiver process got. */
export interface ReceivedElsewhere {
  receiver: string;
  /** webhook-id */
  id: string;
  /** When it arrived (ms since epoch, the receiver process's clock: the same machine's). */
  at: number;
  sequence: number | null;
  order: string | null;
}

export interface ReceiverProcess {
  url(name: string): string;
  /** Fetches what the receivers have got so far; `requests` then reads from it. */
  refresh(): Promise<void>;
  /** What `name` had received at the last `refresh()`, in arrival order. */
  requests(name: string): ReceivedElsewhere[];
  close(): Promise<void>;
}

/**
 * Starts webhook receivers in a child process (tests/faults/fixtures/receivers.ts), so that how
 * fast they answer and when they note a request do not depend on the sender's event loop.
 */
export async function startReceiverProcess(behaviours: Record<string, ReceiverBehaviour>): Promise<ReceiverProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "fixtures/receivers.ts"), JSON.stringify(behaviours)], {
    cwd: path.resolve(__dirname, "../.."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let received: ReceivedElsewhere[] = [];
  const { ready: ports, control } = await new Promise<{ ready: Record<string, number>; control: number }>((resolve, reject) => {
    let buffered = "";
    child.once("exit", (code) => reject(new Error(`receiver process exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.includes("\n")) resolve(JSON.parse(buffered.split("\n")[0]!));
    });
  });
  return {
    url: (name) => `http://127.0.0.1:${ports[name]}/hook`,
    async refresh() {
      received = (await (await fetch(`http://127.0.0.1:${control}/`)).json()) as ReceivedElsewhere[];
    },
    requests: (name) => received.filter((r) => r.receiver === name),
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}
