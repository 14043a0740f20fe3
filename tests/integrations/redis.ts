/** A few Redis commands over one connection (RESP2), for what the Medusa test looks at in Redis. */
import { connect } from "node:net";

type Reply = string | number | null | Reply[];

function encode(command: string[]): string {
  return `*${command.length}\r\n${command.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join("")}`;
}

/** Parses one reply at `offset`; null when the buffer does not hold all of it yet. */
function parse(buffer: Buffer, offset: number): { value: Reply; next: number } | null {
  const lineEnd = buffer.indexOf("\r\n", offset);
  if (lineEnd < 0) return null;
  const type = String.fromCharCode(buffer[offset]!);
  const line = buffer.toString("utf8", offset + 1, lineEnd);
  const after = lineEnd + 2;
  switch (type) {
    case "+":
      return { value: line, next: after };
    case "-":
      throw new Error(`redis: ${line}`);
    case ":":
      return { value: Number(line), next: after };
    case "$": {
      const length = Number(line);
      if (length < 0) return { value: null, next: after };
      if (buffer.length < after + length + 2) return null;
      return { value: buffer.toString("utf8", after, after + length), next: after + length + 2 };
    }
    case "*": {
      const count = Number(line);
      if (count < 0) return { value: null, next: after };
      const items: Reply[] = [];
      let next = after;
      for (let i = 0; i < count; i++) {
        const item = parse(buffer, next);
        if (!item) return null;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`redis: unexpected reply type ${JSON.stringify(type)}`);
  }
}

/** Sends the commands in one go and resolves with their replies, in order. */
export function redis(url: string, commands: string[][]): Promise<Reply[]> {
  const { hostname, port, pathname } = new URL(url);
  const database = pathname.replace(/^\//, "");
  const all = database ? [["SELECT", database], ...commands] : commands;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port || 6379), hostname || "127.0.0.1");
    let buffer = Buffer.alloc(0);
    const replies: Reply[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("redis: no answer within 10 s")));
    socket.on("error", reject);
    socket.on("connect", () => socket.write(all.map(encode).join("")));
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      try {
        let parsed;
        while ((parsed = parse(buffer, 0))) {
          replies.push(parsed.value);
          buffer = buffer.subarray(parsed.next);
        }
      } catch (error) {
        socket.destroy();
        reject(error);
        return;
      }
      if (replies.length === all.length) {
        socket.end();
        resolve(database ? replies.slice(1) : replies);
      }
    });
  });
}

/** Every key matching `pattern` (SCAN, not KEYS: it does not block the server). */
export async function scanKeys(url: string, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [reply] = await redis(url, [["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"]]);
    const [next, batch] = reply as [string, string[]];
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}
