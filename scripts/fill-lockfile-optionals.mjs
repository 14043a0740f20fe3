// The package registry this project installs from serves only the platform binaries of this
// machine (linux-x64): npm leaves other platforms' optional packages (@next/swc-darwin-arm64, …)
// out of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each
// missing optional package as a lock entry restricted to its platform, so `npm ci` accepts the
// lock and skips it here. Run after `npm install` changes the lock: node scripts/fill-lockfile-optionals.mjs
// (another package's lock: node scripts/fill-lockfile-optionals.mjs integrations/medusa/package-lock.json).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const lockPath = process.argv[2] ? path.resolve(process.argv[2]) : new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;
const oses = ["darwin", "win32", "android", "freebsd", "openbsd", "netbsd", "sunos", "aix", "openharmony", "linux", "wasi"];
const cpus = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips64el", "wasm32"];

// npm rewrites an entry it only read from the lock (a platform package it skipped here) with
// `version` first and the other keys in alphabetical order, and marks one that only dev
// dependencies need with `dev`: entries written the same way stay as they are at the next
// `npm install`, so it leaves `git status` clean.
const npmOrder = ({ version, ...rest }) => ({ version, ...Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))) });
const isPlaceholder = (entry) => !entry.integrity && !entry.resolved && !entry.link && entry.optional;

let added = 0;
const dependents = new Map();
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? location + "/" : ""}node_modules/${name}`;
    const key = packages[nested] ? nested : `node_modules/${name}`;
    if (!dependents.has(key)) dependents.set(key, []);
    dependents.get(key).push(entry);
    if (packages[key]) continue;
    const parts = name.split(/[/-]/);
    const os = oses.find((o) => parts.includes(o));
    const cpu = cpus.find((c) => parts.includes(c)) ?? (name.includes("wasm32") ? "wasm32" : undefined);
    packages[key] = {
      version: String(spec).replace(/^[\^~=]/, ""),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added += 1;
  }
}
for (const [key, entry] of Object.entries(packages)) {
  if (!key || !isPlaceholder(entry)) continue;
  const needers = dependents.get(key) ?? [];
  const rest = { ...entry };
  delete rest.dev;
  packages[key] = npmOrder(needers.length > 0 && needers.every((needer) => needer.dev) ? { ...rest, dev: true } : rest);
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + "\n");
console.log(`added ${added} platform-specific optional entries`);
