// Where the test suite's time goes: runs vitest with tests/helpers/profile-reporter.ts and prints the
// slowest files and the time spent in each phase the helpers record (tests/helpers/profile.ts:
// database creation and migration, devnet start and contract deployment, next build, next start,
// fixed sleeps, polling), the CPU each file used (its test worker's and its child processes'), and, over the
// run, how busy the machine's cores were and how many files ran side by side (where the run leaves a core idle).
//
//   npm run test:profile [-- --top 15] [-- --out DIR] [-- <vitest arguments, e.g. tests/faults>]
//   node scripts/test-profile.mjs --compare BEFORE/summary.json AFTER/summary.json
//
// The run's data (files.jsonl, phases-*.jsonl, summary.json) stays in DIR (default: a new folder
// under the system's temp dir), so two runs can be compared later.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);

function takeOption(name) {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
}

const seconds = (ms) => (ms / 1000).toFixed(1);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

function table(header, rows) {
  const lines = [header, header.map(() => "---"), ...rows];
  return lines.map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

function readLines(file) {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** The machine's busy CPU time so far (ms, all cores), from /proc/stat; undefined where there is none. */
function machineBusyMs() {
  if (!existsSync("/proc/stat")) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // USER_HZ is 100 on Linux: a tick is 10 ms.
  return (user + nice + system + irq + softirq + steal) * 10;
}

/**
 * The run in slices of `sliceMs`: the cores busy on average (whatever ran: the tests, their servers, the rest of
 * the machine) and the test files running on average.
 */
function timeline(files, samples, started, wallMs, sliceMs) {
  const slices = [];
  for (let from = 0; from < wallMs; from += sliceMs) {
    const to = Math.min(from + sliceMs, wallMs);
    const inSlice = samples.filter((sample) => sample.atMs > from && sample.atMs <= to);
    const busyMs = inSlice.reduce((sum, sample) => sum + sample.busyMs, 0);
    const sampledMs = inSlice.reduce((sum, sample) => sum + sample.spanMs, 0);
    let fileMs = 0;
    for (const file of files) {
      if (file.endedAt === undefined) continue;
      const end = file.endedAt - started;
      const start = end - file.totalMs;
      fileMs += Math.max(0, Math.min(end, to) - Math.max(start, from));
    }
    slices.push({ fromMs: from, toMs: to, cores: sampledMs ? busyMs / sampledMs : undefined, files: fileMs / (to - from) });
  }
  return slices;
}

function summarize(dir, wallMs, loadStart, loadEnd, vitestArgs, exitCode, started, samples) {
  const files = readLines(path.join(dir, "files.jsonl"));
  const phases = readdirSync(dir)
    .filter((name) => name.startsWith("phases-"))
    .flatMap((name) => readLines(path.join(dir, name)));
  const byFile = new Map();
  for (const phase of phases) {
    const key = `${phase.project}\t${phase.file}`;
    const entry = byFile.get(key) ?? {};
    entry[phase.phase] = (entry[phase.phase] ?? 0) + phase.ms;
    byFile.set(key, entry);
  }
  // The CPU a file used (tests/helpers/setup.ts) is not a phase of its time: a column of its own.
  const cpuPhases = ["CPU: test worker", "CPU: child processes that exited"];
  for (const file of files) {
    file.phases = { ...byFile.get(`${file.project}\t${file.file}`) };
    file.cpuMs = cpuPhases.reduce((sum, phase) => sum + (file.phases[phase] ?? 0), 0);
    for (const phase of cpuPhases) delete file.phases[phase];
  }
  files.sort((a, b) => b.totalMs - a.totalMs);
  const phaseTotals = {};
  const cpuTotals = {};
  for (const phase of phases) {
    if (cpuPhases.includes(phase.phase)) {
      const byProject = (cpuTotals[phase.project] ??= {});
      byProject[phase.phase] = (byProject[phase.phase] ?? 0) + phase.ms;
      continue;
    }
    const total = (phaseTotals[phase.phase] ??= { count: 0, ms: 0, maxMs: 0 });
    total.count += 1;
    total.ms += phase.ms;
    total.maxMs = Math.max(total.maxMs, phase.ms);
  }
  const slices = timeline(files, samples, started, wallMs, 30_000);
  const sampledMs = samples.reduce((sum, sample) => sum + sample.spanMs, 0);
  const cores = sampledMs ? samples.reduce((sum, sample) => sum + sample.busyMs, 0) / sampledMs : undefined;
  return {
    vitestArgs,
    exitCode,
    wallMs,
    loadStart,
    loadEnd,
    fileMsSum: files.reduce((sum, file) => sum + file.totalMs, 0),
    files,
    phaseTotals,
    cpuTotals,
    cores,
    slices,
  };
}

function report(summary, top) {
  const failed = summary.files.filter((file) => file.failed > 0 || file.state === "failed");
  console.log(`\nvitest ${summary.vitestArgs.join(" ") || "(whole suite)"}: exit ${summary.exitCode}`);
  console.log(
    `wall ${seconds(summary.wallMs)} s for ${summary.files.length} files (sum of file times ${seconds(summary.fileMsSum)} s); load average at start ${summary.loadStart}, at end ${summary.loadEnd}`,
  );
  if (failed.length) console.log(`failed: ${failed.map((file) => `${file.project}:${file.file}`).join(", ")}`);
  console.log(`\nSlowest ${top} files (s):\n`);
  console.log(
    table(
      ["project", "file", "total", "CPU", "import", "tests+hooks", "tests", "where the time went"],
      summary.files.slice(0, top).map((file) => [
        file.project,
        file.file,
        seconds(file.totalMs),
        seconds(file.cpuMs),
        seconds(file.collectMs + file.setupMs),
        seconds(file.runMs),
        String(file.tests),
        Object.entries(file.phases)
          .sort((a, b) => b[1] - a[1])
          .map(([phase, ms]) => `${phase} ${seconds(ms)}`)
          .join("; "),
      ]),
    ),
  );
  console.log("\nPhases over all files (s; they overlap when files run in parallel):\n");
  console.log(
    table(
      ["phase", "count", "total", "max"],
      Object.entries(summary.phaseTotals)
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(([phase, total]) => [phase, String(total.count), seconds(total.ms), seconds(total.maxMs)]),
    ),
  );
  const imports = summary.files.reduce((sum, file) => sum + file.collectMs + file.setupMs, 0);
  console.log(`\nImporting and collecting test files: ${seconds(imports)} s in all.`);
  console.log(`\nThe ${top} files that used the most CPU (s; the test worker's, and its child processes' that exited: \`next start\`, CLIs):\n`);
  console.log(
    table(
      ["project", "file", "CPU", "wall"],
      [...summary.files]
        .sort((a, b) => b.cpuMs - a.cpuMs)
        .slice(0, top)
        .map((file) => [file.project, file.file, seconds(file.cpuMs), seconds(file.totalMs)]),
    ),
  );
  if (summary.slices?.length) {
    const busy = summary.cores === undefined ? "" : `, ${summary.cores.toFixed(2)} of ${availableParallelism()} cores busy on average`;
    console.log(`\nThe run in 30 s slices (cores busy on the whole machine, test files running; both averages${busy}):\n`);
    console.log(
      table(
        ["from (s)", "cores busy", "files running"],
        summary.slices.map((slice) => [
          String(Math.round(slice.fromMs / 1000)),
          slice.cores === undefined ? "–" : slice.cores.toFixed(2),
          slice.files.toFixed(2),
        ]),
      ),
    );
  }
  console.log("\nCPU by project (s):\n");
  console.log(
    table(
      ["project", "test workers", "child processes", "total"],
      Object.entries(summary.cpuTotals).map(([project, cpu]) => {
        const worker = cpu["CPU: test worker"] ?? 0;
        const children = cpu["CPU: child processes that exited"] ?? 0;
        return [project, seconds(worker), seconds(children), seconds(worker + children)];
      }),
    ),
  );
}

function compare(beforePath, afterPath, top) {
  const before = JSON.parse(readFileSync(beforePath, "utf8"));
  const after = JSON.parse(readFileSync(afterPath, "utf8"));
  console.log(
    table(
      ["", "before", "after"],
      [
        ["vitest wall time (s)", seconds(before.wallMs), seconds(after.wallMs)],
        ["sum of file times (s)", seconds(before.fileMsSum), seconds(after.fileMsSum)],
        ["files", String(before.files.length), String(after.files.length)],
        ["load average at start / end", `${before.loadStart} / ${before.loadEnd}`, `${after.loadStart} / ${after.loadEnd}`],
      ],
    ),
  );
  const afterByKey = new Map(after.files.map((file) => [`${file.project}\t${file.file}`, file]));
  console.log(`\nThe ${top} slowest files before (s):\n`);
  console.log(
    table(
      ["project", "file", "before", "after"],
      before.files.slice(0, top).map((file) => {
        const later = afterByKey.get(`${file.project}\t${file.file}`);
        return [file.project, file.file, seconds(file.totalMs), later ? seconds(later.totalMs) : "–"];
      }),
    ),
  );
  const phases = [...new Set([...Object.keys(before.phaseTotals), ...Object.keys(after.phaseTotals)])];
  console.log("\nPhases (count, total s):\n");
  console.log(
    table(
      ["phase", "before", "after"],
      phases.map((phase) => {
        const cell = (totals) => (totals[phase] ? `${totals[phase].count} × → ${seconds(totals[phase].ms)}` : "–");
        return [phase, cell(before.phaseTotals), cell(after.phaseTotals)];
      }),
    ),
  );
}

const top = Number(takeOption("--top") ?? 10);
if (args[0] === "--compare") {
  compare(args[1], args[2], top);
} else {
  const dir = takeOption("--out") ?? mkdtempSync(path.join(tmpdir(), "gw-test-profile-"));
  mkdirSync(dir, { recursive: true });
  // A folder used before: start from nothing.
  for (const name of readdirSync(dir)) if (name.endsWith(".jsonl") || name === "summary.json") rmSync(path.join(dir, name));
  const loadStart = load();
  const started = Date.now();
  const samples = [];
  let last = { atMs: 0, busy: machineBusyMs() };
  const sampler = setInterval(() => {
    const busy = machineBusyMs();
    const atMs = Date.now() - started;
    if (busy !== undefined && last.busy !== undefined) samples.push({ atMs, spanMs: atMs - last.atMs, busyMs: busy - last.busy });
    last = { atMs, busy };
  }, 1000);
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=dot", "--reporter=./tests/helpers/profile-reporter.ts", ...args],
    { cwd: root, stdio: "inherit", env: { ...process.env, TEST_PROFILE_DIR: dir } },
  );
  const exitCode = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  clearInterval(sampler);
  const summary = summarize(dir, Date.now() - started, loadStart, load(), args, exitCode, started, samples);
  writeFileSync(path.join(dir, "summary.json"), JSON.stringify(summary, null, 2));
  report(summary, top);
  console.log(`\nData: ${dir}/summary.json (compare two runs: node scripts/test-profile.mjs --compare A B)`);
  process.exitCode = exitCode === 0 ? 0 : 1;
}
