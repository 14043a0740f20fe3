// Patches PGlite's Emscripten runtime after install: its `setitimer` (PostgreSQL's alarm for statement, lock and
// statistics timeouts) hands the delay straight to setTimeout, and Node fires a delay over 2^31 - 1 ms after 1 ms
// (TimeoutOverflowWarning). PGlite's PostgreSQL reads the JavaScript clock, so once that clock steps back (a test that
// faked `Date` years ahead and restored it; a machine whose clock is set back), a timeout armed by the later clock is
// not yet due, PostgreSQL sets the alarm again for the years left, and the process spins on it: hundreds of timers a
// second, a warning each, until the database closes (one CI run printed 38,844 from one test worker). Capped at the
// longest delay Node keeps, the alarm fires after 24.8 days at the earliest, and PostgreSQL's handler, finding the
// timeout not yet due, sets it again (an early alarm is one it already expects). Idempotent; run by `postinstall`.
// Checked by tests/server/pglite-faked-clock.test.ts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Not import.meta.dirname: package.json's engines allow Node 20.9, which lacks it, and `npm install` runs this.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "node_modules/@electric-sql/pglite/dist");
const longestTimeout = 2_147_483_647;
// The end of `__setitimer_js`'s setTimeout call, minified (`},r)`) or not (`},timeout_ms)`).
const alarmTimeout = /(callUserCallback\(__emscripten_timeout,\w+,_emscripten_get_now\(\)\)\},)(\w+)\)/g;
const patched = `_emscripten_get_now())},Math.min(`;

function* runtimeFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* runtimeFiles(full);
    else if (/\.(c|m)?js$/.test(entry.name)) yield full;
  }
}

if (existsSync(dist)) {
  let runtimes = 0;
  for (const file of runtimeFiles(dist)) {
    const text = readFileSync(file, "utf8");
    if (!text.includes("__setitimer_js")) continue;
    runtimes++;
    const next = text.replace(alarmTimeout, `$1Math.min($2,${longestTimeout}))`);
    if (next === text) {
      if (text.includes(patched)) continue;
      throw new Error(
        `patch-pglite: ${path.relative(root, file)} no longer has the setitimer this patch expects (a new PGlite?); check whether it still needs the patch`,
      );
    }
    writeFileSync(file, next);
    console.log(`patch-pglite: patched ${path.relative(root, file)}`);
  }
  if (runtimes === 0) throw new Error("patch-pglite: no PGlite runtime with setitimer found (a new PGlite?); check whether it still needs the patch");
}
