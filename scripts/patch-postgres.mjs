// Patches postgres.js (3.4.9) after install, until upstream takes the fix (porsager/postgres issues #1208,
// #1186; pull requests #1155, #1168): when a connection closes under a transaction (a database restart, a
// killed backend), `sql.begin` sends its own ROLLBACK on it; `closed()` has already set `socket` to null, so
// the write scheduled with setImmediate throws `TypeError: Cannot read properties of null (reading 'write')`
// as an uncaughtException, and the stale write timer it leaves behind keeps that pool slot from ever sending
// its startup message again. The patch: a closed connection refuses statements (`terminated`, as an ended
// one does, until it connects again), drops what it had not written and the error its dying backend sent
// (a FATAL 57P01 would otherwise fail its first statement after it reconnects); a write with no socket is
// dropped. Also (porsager/postgres issues #1192, #1205, #1223): a new connection's first statement is the
// driver's own query for the array types (`fetch_types`), whose promise nothing awaits; when it fails (the
// database went away while the connection started, and the reconnect is refused; the query cancelled) its
// error escaped as an unhandledRejection. The patch catches it: the statement that was waiting for the
// connection still gets that error, or runs once the connection is ready. And a statement failed because
// its socket failed is no longer kept as the one in progress (no answer will come for it): `sql.end()`
// waited for it until its timeout (5 s at every shutdown after such a failure). Idempotent, edit by edit; run by `postinstall`. Checked by
// tests/server/transaction-connection-loss.test.ts.
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
  {
    from: "        return fetchArrayTypes()\n",
    to: "        return fetchArrayTypes().catch(() => { /* gateway patch: array types query failed */ })\n",
  },
  {
    from: "    errored(err)\n    while (sent.length)\n      queryError(sent.shift(), err)\n",
    to: "    errored(err)\n    query = null /* gateway patch: its socket failed, no answer follows */\n    while (sent.length)\n      queryError(sent.shift(), err)\n",
  },
];

for (const file of ["node_modules/postgres/cjs/src/connection.js", "node_modules/postgres/src/connection.js", "node_modules/postgres/cf/src/connection.js"]) {
  const full = path.join(root, file);
  if (!existsSync(full)) continue;
  let text = readFileSync(full, "utf8");
  const original = text;
  for (const { from, to } of edits) {
    if (text.includes(to)) continue;
    if (!text.includes(from))
      throw new Error(`patch-postgres: ${file} no longer has the code this patch expects (a new postgres.js?); check whether it still needs the patch`);
    text = text.replace(from, to);
  }
  if (text === original) continue;
  writeFileSync(full, text);
  console.log(`patch-postgres: patched ${file}`);
}
