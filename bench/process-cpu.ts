import { readdirSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process and all its descendants (via /proc/<pid>/task/<tid>/children). */
export function processTree(pid: number): number[] {
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let children = "";
      try {
        children = readFileSync(`/proc/${p}/task/${tid}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of children.trim().split(/\s+/).filter(Boolean)) visit(Number(child));
    }
  };
  visit(pid);
  return out;
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime, stime
  } catch {
    return 0;
  }
}

/** Percent of one core the process tree of `pid` used over `seconds`, with the names of the processes. */
export async function measureTreeCpu(pid: number, seconds: number): Promise<{ percent: number; processes: string[] }> {
  const before = new Map(processTree(pid).map((p) => [p, cpuSeconds(p)]));
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const tree = processTree(pid);
  let used = 0;
  const processes = tree.map((p) => {
    const own = cpuSeconds(p) - (before.get(p) ?? 0);
    used += own;
    const share = `${((100 * own) / elapsed).toFixed(1)} %`;
    try {
      return `${p} ${readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").slice(0, 3).join(" ").slice(0, 80)} (${share})`;
    } catch {
      return `${p} (${share})`;
    }
  });
  return { percent: (100 * used) / elapsed, processes };
}

/** CPU seconds the process tree of `pid` has used so far (all threads: JS, GC, libuv pool). */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0);
}
