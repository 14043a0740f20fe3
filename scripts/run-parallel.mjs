// Runs npm scripts side by side and fails if any of them fails: `node scripts/run-parallel.mjs lint typecheck`.
// `npm test` runs the lint and the type check together (each keeps about one core busy), then the
// build: not beside the type check, since the build clears and rewrites .next/types, which
// tsconfig.json includes. Each script's output is printed in one piece when it ends, under its
// name and how long it took.
import { spawn } from "node:child_process";

const scripts = process.argv.slice(2);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = Date.now();

const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((resolve) => {
        const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
        const chunks = [];
        child.stdout.on("data", (chunk) => chunks.push(chunk));
        child.stderr.on("data", (chunk) => chunks.push(chunk));
        child.once("error", (error) => chunks.push(Buffer.from(String(error))));
        child.once("close", (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const ok = code === 0;
          process.stdout.write(`\n── npm run ${script}: ${ok ? "ok" : `failed (${code ?? signal})`} after ${seconds} s ──\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(ok);
        });
      }),
  ),
);
process.exitCode = results.every(Boolean) ? 0 : 1;
