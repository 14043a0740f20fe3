// Patches postgres.js (3.4.9) after install, until upstream takes the fix (porsager/postgres issues #1208,
// #1186; pull requests #1155, #1168): when a connection closes under a transaction (a database restart, a
// killed backend), `sql.begin` sends its own ROLLBACK on it; `closed()` has already set `socket` to null, so
// the write scheduled with setImmediate throws `TypeError: Cannot read properties of null (reading 'write')`
// as an uncaughtException, and the stale write timer it leaves behind keeps that pool slot from ever sending
// its startup message again. The patch: a closed connection refuses statements (`terminated`, as an ended
// one does, until it connects again), drops what it had not written and the error its dying backend sent
// (a FATAL 57P01 would otherwise fail its first statement after it reconnects); a write with no socket is
// dropped. Idempotent; run by `postinstall`. Checked by tests/server/transaction-connection-loss.test.ts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Not import.meta.dirname: package.json's engines allow Node 20.9, which lacks it, and `npm install` runs this.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const marker = "/* gateway patch: closed connection */";
const edits = [
  {
    from: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    to: `  function nextWrite(fn) {\n    ${marker}\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
  },
  {
    from: "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()",
    to: `    clearImmediate(nextWriteTimer)\n    ${marker}\n    chunk = nextWriteTimer = null\n    errorResponse = null\n    terminated = true\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()`,
  },
];

for (const file of ["node_modules/postgres/cjs/src/connection.js", "node_modules/postgres/src/connection.js", "node_modules/postgres/cf/src/connection.js"]) {
  const full = path.join(root, file);
  if (!existsSync(full)) continue;
  let text = readFileSync(full, "utf8");
  if (text.includes(marker)) continue;
  for (const { from, to } of edits) {
    if (!text.includes(from)) throw new Error(`patch-postgres: ${file} no longer has the code this patch expects (a new postgres.js?); check whether it still needs the patch`);
    text = text.replace(from, to);
  }
  writeFileSync(full, text);
  console.log(`patch-postgres: patched ${file}`);
}
