import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { backend, createMigratedPgliteDir } from "../helpers/db";
import { shortLivedWasmFlags } from "../helpers/short-lived-wasm";
import { printSummary } from "./support";

// Embedded PGlite on disk, its writer killed with SIGKILL mid-write, several times over: the
// directory must open again, every transaction whose COMMIT returned must be there, and no
// transaction may be half there. PGlite-only (PostgreSQL's durability is PostgreSQL's).

const root = path.resolve(__dirname, "../..");
// A migrated data directory to start from: the writer's first start then skips PGlite's initdb.
let dir: string;
beforeAll(async () => {
  if (backend === "pglite") dir = await createMigratedPgliteDir("gw-faults-pglite-");
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the writer until it has acknowledged `acks` more commits, then SIGKILLs it; returns the last acknowledged n. */
function writeThenKill(acks: number): Promise<{ first: number; last: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...shortLivedWasmFlags, "--conditions=react-server", "--import", "tsx", path.join(__dirname, "fixtures/pglite-writer.ts"), dir],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", GATEWAY_MODE: "sandbox", NODE_ENV: "test", LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let first = -1;
    let last = -1;
    let seen = 0;
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`writer made no progress:\n${output}`));
    }, 90_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        const ready = /^ready (\d+)$/.exec(line);
        if (ready) first = Number(ready[1]);
        const ack = /^ack (\d+)$/.exec(line);
        if (ack) {
          last = Number(ack[1]);
          if (++seen === acks) child.kill("SIGKILL");
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL" && seen >= acks) resolve({ first, last, output });
      else reject(new Error(`writer exited with ${code ?? signal} after ${seen} acks:\n${output}`));
    });
  });
}

describe.skipIf(backend !== "pglite")("embedded PGlite killed mid-write", () => {
  test(
    "SIGKILL of the writing process, three times: the database opens, every acknowledged commit is there, none half there",
    { timeout: 240_000 },
    async () => {
      let acknowledged = 0;
      let lastAcked = 0;
      for (const acks of [40, 150, 15]) {
        const round = await writeThenKill(acks);
        // The previous round's acknowledged commits survived the kill (a commit whose "ack" the kill swallowed may be there too).
        expect(round.first).toBeGreaterThanOrEqual(lastAcked);
        acknowledged += round.last - round.first;
        lastAcked = round.last;
      }

      const database = await openDatabase({ pgliteDir: dir });
      try {
        const result = (await database.db.execute(sql`SELECT n, pair_of FROM fault_probe`)) as unknown as {
          rows: Array<{ n: number; pair_of: number | null }>;
        };
        const rows = result.rows;
        const main = new Set(rows.filter((r) => r.pair_of === null).map((r) => r.n));
        const pairs = new Set(rows.filter((r) => r.pair_of !== null).map((r) => r.pair_of!));
        const found = [...Array(lastAcked).keys()].map((i) => i + 1).filter((n) => main.has(n)).length;
        const halfThere = [...main].filter((n) => !pairs.has(n)).length + [...pairs].filter((n) => !main.has(n)).length;
        // Rows past the last acknowledged n are commits whose acknowledgement the kill swallowed: allowed, if whole.
        printSummary("PGlite SIGKILL mid-write (3 rounds)", {
          acknowledged,
          found,
          lost: lastAcked - found,
          duplicated: rows.length - new Set(rows.map((r) => r.n)).size,
          "5xx": 0,
          half_written: halfThere,
          committed_unacknowledged: [...main].filter((n) => n > lastAcked).length,
        });
        expect(found).toBe(lastAcked);
        expect(halfThere).toBe(0);
      } finally {
        await database.close();
      }
    },
  );
});
