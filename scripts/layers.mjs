#!/usr/bin/env node
/**
 * Imports that run up a layer: `node scripts/layers.mjs` lists them grouped by folder pair (from → to,
 * how many, and which files), then the total; `--json` gives the same as JSON; `--imports` gives every
 * file's import specifiers as read here (tests/unit/architecture/layering.test.ts checks them against
 * TypeScript's own parser, and holds the total to a baseline that may only go down).
 *
 * Plain Node, no dependencies: the sources are read with a small lexer that skips comments, strings,
 * template literals and regular expressions, so an `import … from "…"` inside a code sample is not
 * taken for one.
 *
 * What counts: a static import, a re-export (`export … from`) or an `import()`, type-only ones too (a
 * layer that names a type of the layer above it still knows that layer), counted once per (file,
 * imported file), when the imported file's layer is above the importing file's. Folders on the same
 * layer may import each other: the table only orders what must not point up. A file outside the table
 * makes the script fail: place a new folder before it counts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The layers, from the top down (docs/design/module-map.md and STYLE rule 13, "Layers point down").
 * Each entry is a folder, or a file without its extension; a path belongs to the longest entry it
 * starts with.
 *
 * - entry points: what Next, the CLIs and the benchmarks start from; nothing imports them (the
 *   benchmarks borrow the test helpers, so tests/ sits with them).
 * - components: the dashboard's and the pay page's React components. They receive server actions as
 *   props from the pages in app/, never import them.
 * - ui primitives: components/ui, below the feature components that compose them.
 * - assembly: what puts the domains together for a surface: the route list and the OpenAPI document
 *   built from it, the server start, and the HTTP wrapper (with-api, plain-route, route-methods) that
 *   authenticates, meters and answers every route. Only app/ and the entry points use them.
 * - surfaces: lib/dashboard shapes the dashboard's pages from many domains; lib/health reads readiness
 *   and renders the metrics from the tasks, chains, webhooks and gasless state.
 * - engine: every task and the per-chain policy; it composes the domains below (scan → attribute →
 *   advance). Nothing but the surfaces and the assembly may know it.
 * - features: what is built on payments: gasless relays, payment links, payouts, the sandbox's tools, and the
 *   retention policy over several domains' tables.
 * - payments: orders and refunds (a refund's JSON is part of its order's: they share a layer).
 * - payment basics: what orders are made of: the merchant's wallets, on-chain transactions, prices.
 * - account services: built on accounts, used by the payment domains: webhook endpoints and the
 *   event outbox, mail, team members.
 * - accounts: lib/auth: merchants, credentials, sessions, permissions, the plan's rate limit.
 * - chains: talks to chains and stores what it saw (cursors, transfers it recorded, sweeps); it knows
 *   no merchant-facing domain above it.
 * - runtime: what runs below every domain and knows none: lib/jobs (supervisor, task state, drivers,
 *   kick), the audit trail's recorder, idempotent requests, the general fixed-window rate limiter.
 * - HTTP and money basics: the API's errors, error codes and their wording, envelope, pagination,
 *   zod messages; money amounts (parsing an amount throws the API's INVALID_AMOUNT). Above storage:
 *   the database layer knows neither HTTP nor amounts.
 * - storage: lib/db (client, schema, list SQL, locks).
 * - leaves: imported by anything, importing only each other: env, log, ids, redaction, deadlines,
 *   metrics, CSV writing, list windows, process singletons, locales, the generated API client, and
 *   the data folders (messages, contract artifacts).
 */
export const layers = [
  {
    name: "entry points",
    entries: [
      "app",
      "scripts",
      "bench",
      "tests",
      "i18n",
      "instrumentation",
      "instrumentation-node",
      "proxy",
      "next.config",
      "drizzle.config",
      "playwright.config",
      "vitest.config",
    ],
  },
  { name: "components", entries: ["components"] },
  { name: "ui primitives", entries: ["components/ui"] },
  { name: "assembly", entries: ["lib/api-routes", "lib/openapi", "lib/server-start", "lib/http/with-api", "lib/http/plain-route", "lib/http/route-methods"] },
  { name: "surfaces", entries: ["lib/dashboard", "lib/health"] },
  { name: "engine", entries: ["lib/engine"] },
  {
    name: "features",
    entries: [
      "lib/gasless",
      "lib/payment-links",
      "lib/payouts",
      "lib/sandbox",
      "lib/retention",
      "lib/subscriptions",
      "lib/invoices",
      "lib/receipts",
      "lib/branding",
    ],
  },
  { name: "payments", entries: ["lib/orders", "lib/refunds", "lib/screening"] },
  { name: "payment basics", entries: ["lib/wallets", "lib/transactions", "lib/pricing", "lib/tokens"] },
  { name: "account services", entries: ["lib/webhooks", "lib/mail", "lib/members"] },
  { name: "accounts", entries: ["lib/auth"] },
  { name: "chains", entries: ["lib/chains"] },
  { name: "runtime", entries: ["lib/jobs", "lib/audit", "lib/idempotency", "lib/rate-limit"] },
  { name: "HTTP and money basics", entries: ["lib/http", "lib/money"] },
  { name: "storage", entries: ["lib/db"] },
  {
    name: "leaves",
    entries: [
      "lib/env",
      "lib/log",
      "lib/redact",
      "lib/ids",
      "lib/deadline",
      "lib/metrics",
      "lib/csv",
      "lib/list-window",
      "lib/process-singleton",
      "lib/i18n",
      "lib/client",
      "messages",
      "devnet",
    ],
  },
];

/** Folders read (every .ts, .tsx and .mjs file under them), and the root's own .ts files. */
const scannedFolders = ["app", "components", "lib", "scripts", "bench", "i18n"];
const sourceFile = /\.(ts|tsx|mjs)$/;

const rankOf = new Map();
layers.forEach((layer, index) => layer.entries.forEach((entry) => rankOf.set(entry, { rank: layers.length - index, layer: layer.name })));

/** The table entry a path (relative to the root, with "/") belongs to: the longest one it is, or is under. */
export function unitOf(file) {
  const stem = file.replace(/(\.d)?\.(ts|tsx|mjs|js|cjs|json|css)$/, "");
  let best = null;
  for (const entry of rankOf.keys()) {
    if ((stem === entry || file.startsWith(`${entry}/`)) && (!best || entry.length > best.length)) best = entry;
  }
  if (!best) throw new Error(`${file} is in no layer: add its folder to the table in scripts/layers.mjs`);
  return best;
}

// ─── reading imports ───

/** Names after which a `/` starts a regular expression, not a division. */
const beforeExpression = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await"]);

/** The source as tokens: names, numbers, string values, punctuation; comments dropped, template literals and regular expressions opaque. */
function tokenize(source) {
  const tokens = [];
  const n = source.length;
  let i = source.startsWith("#!") ? source.indexOf("\n") : 0;
  if (i < 0) return tokens;
  let braces = 0;
  /** For each template literal whose `${` is open: the brace depth its `}` closes at. */
  const templates = [];
  const last = () => tokens[tokens.length - 1];
  const regexMayStart = () => {
    const previous = last();
    if (!previous) return true;
    if (previous.kind === "name") return beforeExpression.has(previous.value);
    if (previous.kind !== "punct") return false;
    // `</` closes a JSX element; `)`, `]` and `}` end an operand.
    return !["<", ")", "]", "}"].includes(previous.value);
  };
  /** From just inside a template literal (after "`" or a closing "}"): to its end, or into its next `${`. */
  const skipTemplate = (j) => {
    while (j < n) {
      const c = source[j];
      if (c === "\\") j += 2;
      else if (c === "`") return j + 1;
      else if (c === "$" && source[j + 1] === "{") {
        templates.push(braces);
        braces++;
        return j + 2;
      } else j++;
    }
    return n;
  };
  while (i < n) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? n : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let value = "";
      while (j < n && source[j] !== c && source[j] !== "\n") {
        if (source[j] === "\\") {
          value += source[j + 1] ?? "";
          j += 2;
        } else value += source[j++];
      }
      tokens.push({ kind: "string", value });
      i = j + 1;
    } else if (c === "`") {
      tokens.push({ kind: "template" });
      i = skipTemplate(i + 1);
    } else if (c === "}" && templates.length > 0 && templates[templates.length - 1] === braces - 1) {
      templates.pop();
      braces--;
      i = skipTemplate(i + 1);
    } else if (c === "/" && regexMayStart()) {
      // A regular expression runs to its unescaped closing `/` (outside a character class) on the same line.
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "\\") j++;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j++;
      }
      if (source[j] === "/") {
        tokens.push({ kind: "regex" });
        i = j + 1;
        while (i < n && /[a-z]/i.test(source[i])) i++;
      } else {
        tokens.push({ kind: "punct", value: c });
        i++;
      }
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(source[j])) j++;
      tokens.push({ kind: "name", value: source.slice(i, j) });
      i = j;
    } else if (/\d/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(source[j])) j++;
      tokens.push({ kind: "number" });
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      if (c === "{") braces++;
      else if (c === "}") braces--;
      tokens.push({ kind: "punct", value: c });
      i++;
    }
  }
  return tokens;
}

/** Whether an import clause's tokens (between `import` and `from`) bring in types only. */
function typeOnlyClause(clause) {
  if (clause[0]?.value === "type" && clause[1]?.value !== "," && clause.length > 1) return true;
  if (clause[0]?.value !== "{" || clause[clause.length - 1]?.value !== "}") return false;
  const elements = [];
  let current = [];
  for (const token of clause.slice(1, -1)) {
    if (token.value === ",") {
      if (current.length) elements.push(current);
      current = [];
    } else current.push(token);
  }
  if (current.length) elements.push(current);
  return elements.length > 0 && elements.every((element) => element[0]?.value === "type" && element.length > 1);
}

/** Tokens an import or export clause is made of; anything else means the `import` word was not a statement's. */
const clauseToken = (token) => token.kind === "name" || (token.kind === "punct" && ["{", "}", ",", "*"].includes(token.value)) || token.kind === "string";

/**
 * The module specifiers a source imports: `import … from "x"`, `import "x"`, `export … from "x"`,
 * `import("x")`, each with whether it brings in types only.
 */
export function importsOf(source) {
  const tokens = tokenize(source);
  const found = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i];
    if (word.kind !== "name" || (word.value !== "import" && word.value !== "export")) continue;
    const previous = tokens[i - 1];
    const next = tokens[i + 1];
    if (previous?.kind === "punct" && previous.value === ".") continue;
    if (word.value === "import" && next?.value === "(") {
      const specifier = tokens[i + 2];
      if (specifier?.kind === "string") found.push({ specifier: specifier.value, typeOnly: previous?.value === "typeof" });
      continue;
    }
    if (word.value === "import" && next?.kind === "string") {
      found.push({ specifier: next.value, typeOnly: false });
      continue;
    }
    // `export { … } from`, `export * from`, `export type { … } from`; other exports declare something.
    if (
      word.value === "export" &&
      !(next?.value === "{" || next?.value === "*" || (next?.value === "type" && (tokens[i + 2]?.value === "{" || tokens[i + 2]?.value === "*")))
    )
      continue;
    const clause = [];
    let j = i + 1;
    while (j < tokens.length && clauseToken(tokens[j]) && !(tokens[j].value === "from" && tokens[j + 1]?.kind === "string")) clause.push(tokens[j++]);
    if (tokens[j]?.value === "from" && tokens[j + 1]?.kind === "string") found.push({ specifier: tokens[j + 1].value, typeOnly: typeOnlyClause(clause) });
  }
  return found;
}

// ─── the graph ───

function filesUnder(folder) {
  const full = path.join(root, folder);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    if (name === "node_modules" || name.startsWith(".")) return [];
    const relative = `${folder}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) return filesUnder(relative);
    return sourceFile.test(name) && !name.endsWith(".d.ts") ? [relative] : [];
  });
}

/** Every file read: the scanned folders' sources and the root's own .ts files (configs, instrumentation, proxy). */
export function sourceFiles() {
  const rootFiles = readdirSync(root).filter((name) => /\.ts$/.test(name) && !name.endsWith(".d.ts") && statSync(path.join(root, name)).isFile());
  return [...rootFiles, ...scannedFolders.flatMap(filesUnder)].sort();
}

/** The repository file an import specifier names (relative to the root), or null for a package. */
function resolveSpecifier(from, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  throw new Error(`${from} imports "${specifier}", which names no file`);
}

/** The imports that run up a layer, grouped by (from, to) table entry, most first. */
export function upwardImports() {
  const pairs = new Map();
  for (const file of sourceFiles()) {
    const from = unitOf(file);
    const seen = new Map();
    for (const { specifier, typeOnly } of importsOf(readFileSync(path.join(root, file), "utf8"))) {
      const target = resolveSpecifier(file, specifier);
      if (target === null) continue;
      seen.set(target, (seen.get(target) ?? true) && typeOnly);
    }
    for (const [target, typeOnly] of seen) {
      const to = unitOf(target);
      if (rankOf.get(to).rank <= rankOf.get(from).rank) continue;
      const key = `${from} → ${to}`;
      if (!pairs.has(key)) pairs.set(key, { from, to, fromLayer: rankOf.get(from).layer, toLayer: rankOf.get(to).layer, count: 0, imports: [] });
      const pair = pairs.get(key);
      pair.count++;
      pair.imports.push({ file, imports: target, typeOnly });
    }
  }
  const sorted = [...pairs.values()].sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  return { total: sorted.reduce((sum, pair) => sum + pair.count, 0), pairs: sorted };
}

// ─── the command ───

function main(args) {
  if (args.includes("--imports")) {
    const files = Object.fromEntries(sourceFiles().map((file) => [file, importsOf(readFileSync(path.join(root, file), "utf8")).map((i) => i.specifier)]));
    process.stdout.write(`${JSON.stringify({ files })}\n`);
    return;
  }
  const result = upwardImports();
  if (args.includes("--json")) {
    process.stdout.write(`${JSON.stringify({ ...result, layers: layers.map((l) => ({ name: l.name, entries: l.entries })) }, null, 2)}\n`);
    return;
  }
  const lines = [`Layers, from the top: ${layers.map((l) => l.name).join(" › ")} (scripts/layers.mjs).`, ""];
  for (const pair of result.pairs) {
    lines.push(`${pair.from} → ${pair.to}  ${pair.count}  (${pair.fromLayer} → ${pair.toLayer})`);
    for (const i of pair.imports) lines.push(`    ${i.file} → ${i.imports}${i.typeOnly ? " (types)" : ""}`);
  }
  lines.push(
    "",
    `${result.total} import${result.total === 1 ? "" : "s"} run up a layer, between ${result.pairs.length} folder pair${result.pairs.length === 1 ? "" : "s"}.`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
