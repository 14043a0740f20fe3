import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from "node:net";

/** A TCP proxy in front of a node (a devnet's HTTP and WebSocket port): closing it makes the node unreachable without the node losing state. */
export class TcpProxy {
  private listener: TcpServer | null = null;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private targetPort: number,
  ) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  retarget(port: number) {
    this.targetPort = port;
  }
  open(): Promise<void> {
    const listener = createTcpServer((client) => {
      const upstream = connect(this.targetPort, "127.0.0.1");
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.listener = listener;
    return new Promise((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(this.port, "127.0.0.1", () => resolve());
    });
  }
  /** Refuses new connections and cuts the open ones: the node is unreachable. */
  close(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  }
}
