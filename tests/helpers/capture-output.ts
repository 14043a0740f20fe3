/** Captures what the code under test writes to stdout and stderr (the JSON log lines) while `fn` runs. */
export async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: T; output: string; lines: Record<string, unknown>[] }> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }
  try {
    const result = await fn();
    const output = chunks.join("");
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { result, output, lines };
  } finally {
    streams.forEach((stream, i) => (stream.write = originals[i]!));
  }
}
