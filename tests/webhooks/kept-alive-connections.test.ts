import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { sendWebhook } from "@/lib/webhooks/deliver";

/**
 * A receiver that closes a kept-alive connection just as the next request arrives on it, the way a
 * server's idle timeout (Node's default is 5 s) crosses a delivery that picked that connection.
 * `dropOn(request, served)` decides, per request, whether its connection is destroyed unanswered
 * (`served`: requests already answered on that connection).
 */
async function startReceiver(dropOn: (request: IncomingMessage, served: number) => boolean) {
  const served = new WeakMap<Socket, number>();
  const seen: Array<{ dropped: boolean; webhookId: string }> = [];
  const server: Server = createServer((req, res) => {
    const count = served.get(req.socket) ?? 0;
    const dropped = dropOn(req, count);
    seen.push({ dropped, webhookId: String(req.headers["webhook-id"]) });
    if (dropped) return void req.socket.destroy();
    req.resume();
    req.on("end", () => {
      served.set(req.socket, count + 1);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    server,
  };
}

const sandbox = { allowHttp: true, allowLoopback: true };
const send = (url: string, messageId: string) => sendWebhook({ url, body: "{}", messageId, secrets: ["whsec_AAAA"], policy: sandbox });

let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  receiver?.server.closeAllConnections();
  await receiver?.close();
  receiver = undefined;
});

describe("a kept-alive connection the receiver has closed", () => {
  test("a delivery that goes out on it is sent again at once on a new connection and succeeds", async () => {
    receiver = await startReceiver((_request, served) => served > 0);
    const first = await send(receiver.url, "msg_first");
    expect(first).toMatchObject({ statusCode: 200, error: null });

    const second = await send(receiver.url, "msg_second");
    expect(second).toMatchObject({ statusCode: 200, error: null, responseBody: "ok" });
    expect(receiver.seen).toEqual([
      { dropped: false, webhookId: "msg_first" },
      { dropped: true, webhookId: "msg_second" },
      { dropped: false, webhookId: "msg_second" },
    ]);
  });

  test("it is sent again once only: a receiver that keeps dropping it gets a failed attempt", async () => {
    let requests = 0;
    receiver = await startReceiver(() => requests++ > 0);
    expect(await send(receiver.url, "msg_first")).toMatchObject({ statusCode: 200 });

    const second = await send(receiver.url, "msg_second");
    expect(second).toMatchObject({ statusCode: null, error: "The receiver on this machine could not be reached." });
    expect(receiver.seen.map((r) => r.dropped)).toEqual([false, true, true]);
  });

  test("a connection reset on a new connection is not sent again", async () => {
    receiver = await startReceiver(() => true);
    const result = await send(receiver.url, "msg_only");
    expect(result).toMatchObject({ statusCode: null, error: "The receiver on this machine could not be reached." });
    expect(receiver.seen).toHaveLength(1);
  });
});
