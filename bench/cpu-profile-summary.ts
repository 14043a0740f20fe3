import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and sums self time per function and per origin
 * (our code, Next, React, postgres.js, drizzle, zod, viem, Node internals, GC, idle), so a
 * profile of `next start` under load says where each request's CPU goes.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  /** Microseconds sampled in total, idle included. */
  totalUs: number;
  /** Microseconds not idle. */
  busyUs: number;
  byOrigin: Array<{ origin: string; us: number }>;
  byFunction: Array<{ name: string; origin: string; us: number }>;
  /**
   * Self time of Node internals and natives charged to the nearest caller that is neither (a
   * package or our code), so the Request/stream/socket work Next does per request shows as Next's.
   */
  byCaller: Array<{ origin: string; us: number }>;
  /** Inclusive time of functions whose name matches a pattern (each counted once per stack). */
  inclusive: Array<{ name: string; us: number }>;
}

/** Where a function comes from, by its script URL (bundled app code is in .next/server chunks). */
export function originOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === "(idle)") return "idle";
    if (functionName === "(garbage collector)") return "gc";
    if (functionName === "(program)") return "program (V8, natives)";
    return "native";
  }
  if (url.startsWith("node:")) return "node internals";
  if (/^(lib|app)\//.test(url)) return `ours: ${url.split("/").slice(0, 2).join("/")}`;
  if (/^[a-z-]+\.ts$/.test(url) || url === "proxy.ts" || url === "instrumentation.ts") return `ours: ${url}`;
  const packages: Array<[RegExp, string]> = [
    [/node_modules\/next\/dist\/compiled\/next-server\//, "next (compiled server runtime)"],
    [/node_modules\/next\/dist\/compiled\//, "next (compiled deps)"],
    [/node_modules\/next\//, "next"],
    [/node_modules\/postgres\//, "postgres.js"],
    [/node_modules\/react(-dom)?\//, "react"],
    [/node_modules\/(@[^/]+\/[^/]+|[^/]+)\//, "$1"],
  ];
  for (const [pattern, name] of packages) {
    const match = pattern.exec(url);
    if (match) return name.replace("$1", match[1] ?? "");
  }
  if (/\/\.next[^/]*\/server\//.test(url)) return "app bundle (.next/server)";
  return url;
}

/** `skipUs`: samples in the profile's first `skipUs` microseconds are left out (startup, warm-up). */
/** Bundled frames (.next/server chunks) mapped back to their source file and line through the build's source maps. */
const sourceMaps = new Map<string, SourceMap | null>();

function mapFrame(url: string, line: number, column: number): { url: string; line: number } {
  if (!/\/\.next[^/]*\/server\//.test(url)) return { url, line };
  let map = sourceMaps.get(url);
  if (map === undefined) {
    const file = url.startsWith("file:") ? fileURLToPath(url) : url;
    map = existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : null;
    sourceMaps.set(url, map);
  }
  const origin = map?.findOrigin(line + 1, column + 1);
  if (!origin || !("fileName" in origin)) return { url, line };
  const file = origin.fileName.replace(/^(\.\.\/)+/, "").replace("%40", "@");
  // drizzle-orm's maps point at its sources (`../src/…`), which land in node_modules/src.
  return { url: file.replace(/^node_modules\/src\//, "node_modules/drizzle-orm/src/"), line: origin.lineNumber - 1 };
}

export function summarizeProfile(file: string, inclusivePatterns: RegExp[] = [], skipUs = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // Self time per node from samples and their time deltas (more exact than hitCount × interval).
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let clock = 0;
  for (let i = 0; i < samples.length; i++) {
    clock += deltas[i] ?? 0;
    if (clock < skipUs) continue;
    const dt = deltas[i + 1] ?? 0; // a sample's delta is the time until the next one
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + Math.max(0, dt));
  }
  let totalUs = 0;
  let idleUs = 0;
  const origins = new Map<string, number>();
  const functions = new Map<string, { name: string; origin: string; us: number }>();
  const inclusive = new Map<string, number>(inclusivePatterns.map((p) => [p.source, 0]));
  const callers = new Map<string, number>();
  const attributable = (origin: string) => !["node internals", "native", "idle", "gc", "program (V8, natives)"].includes(origin);
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName } = node.callFrame;
    const { url, line: lineNumber } = mapFrame(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber);
    const origin = originOf(url, functionName);
    totalUs += us;
    if (origin === "idle") idleUs += us;
    origins.set(origin, (origins.get(origin) ?? 0) + us);
    const shortUrl = url.replace(/^.*\/(node_modules|\.next[^/]*)\//, "$1/");
    const key = `${functionName || "(anonymous)"} ${shortUrl}:${lineNumber + 1}`;
    const entry = functions.get(key) ?? { name: key, origin, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    let caller = origin;
    for (let at: number | undefined = id; at !== undefined && !attributable(caller); at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const origin = originOf(mapFrame(frame.url, frame.lineNumber, frame.columnNumber).url, frame.functionName);
      if (attributable(origin)) caller = origin;
    }
    callers.set(caller, (callers.get(caller) ?? 0) + us);
    // Inclusive: walk up the stack once, crediting each pattern at most once.
    if (inclusivePatterns.length) {
      const credited = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        const label = `${frame.functionName} ${mapFrame(frame.url, frame.lineNumber, frame.columnNumber).url}`;
        for (const pattern of inclusivePatterns) {
          if (!credited.has(pattern.source) && pattern.test(label)) {
            credited.add(pattern.source);
            inclusive.set(pattern.source, inclusive.get(pattern.source)! + us);
          }
        }
      }
    }
  }
  return {
    totalUs,
    busyUs: totalUs - idleUs,
    byOrigin: [...origins].map(([origin, us]) => ({ origin, us })).sort((a, b) => b.us - a.us),
    byFunction: [...functions.values()].sort((a, b) => b.us - a.us),
    byCaller: [...callers].map(([origin, us]) => ({ origin, us })).sort((a, b) => b.us - a.us),
    inclusive: [...inclusive].map(([name, us]) => ({ name, us })).sort((a, b) => b.us - a.us),
  };
}

export function printProfileSummary(label: string, summary: ProfileSummary, top = 40): void {
  const pct = (us: number) => ((100 * us) / summary.busyUs).toFixed(1);
  console.log(`\n### ${label}: ${(summary.busyUs / 1e6).toFixed(1)} s busy of ${(summary.totalUs / 1e6).toFixed(1)} s sampled (percentages are of busy time)`);
  console.log("| origin | % busy |\n|---|---|");
  for (const { origin, us } of summary.byOrigin) if (origin !== "idle") console.log(`| ${origin} | ${pct(us)} |`);
  console.log("\n| origin, with the Node internals it calls (self time charged to the nearest package or our code) | % busy |\n|---|---|");
  for (const { origin, us } of summary.byCaller) if (origin !== "idle" && us / summary.busyUs >= 0.001) console.log(`| ${origin} | ${pct(us)} |`);
  if (summary.inclusive.length) {
    console.log("\n| inclusive (function or file matching) | % busy |\n|---|---|");
    for (const { name, us } of summary.inclusive) console.log(`| ${name} | ${pct(us)} |`);
  }
  console.log(`\n| top functions by self time | origin | % busy |\n|---|---|---|`);
  for (const f of summary.byFunction.filter((f) => f.origin !== "idle").slice(0, top)) console.log(`| ${f.name} | ${f.origin} | ${pct(f.us)} |`);
}

if (process.argv[1]?.endsWith("cpu-profile-summary.ts")) {
  const [file, ...patterns] = process.argv.slice(2);
  printProfileSummary(
    file!,
    summarizeProfile(
      file!,
      patterns.map((p) => new RegExp(p)),
    ),
    60,
  );
}
