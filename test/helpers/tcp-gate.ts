import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A loopback port forwarding to another (`127.0.0.1:5432`) that a test can shut and open again: shut,
 * the port refuses connections and every connection through it is cut, as when the database's host
 * goes away; open, it forwards again on the same port.
 */
export class TcpGate {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;
  #stalled = false;

  private constructor(target: { host: string; port: number }) {
    this.#target = target;
  }

  static async open(target: { host: string; port: number }): Promise<TcpGate> {
    const gate = new TcpGate(target);
    await gate.open();
    return gate;
  }

  get port(): number {
    return this.#port;
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      // Accepted just as the gate shut: cut at once, as the rest were.
      if (this.#server !== server) {
        client.destroy();
        return;
      }
      if (this.#stalled) {
        // Taken, and then nothing: no answer, as from a host behind a silent network.
        this.#sockets.add(client);
        client.on('close', () => this.#sockets.delete(client));
        client.on('error', () => client.destroy());
        client.pause();
        return;
      }
      const upstream = tcpConnect(this.#target.port, this.#target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address !== null && typeof address === 'object') this.#port = address.port;
    this.#server = server;
  }

  /**
   * Keeps every connection open but carries nothing more either way, and takes new ones without
   * ever answering: a network that silently stops delivering packets. `shut` ends it.
   */
  stall(): void {
    this.#stalled = true;
    for (const socket of this.#sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  async shut(): Promise<void> {
    this.#stalled = false;
    const server = this.#server;
    this.#server = undefined;
    // No new connection first, then every open one cut.
    const closed =
      server === undefined
        ? Promise.resolve()
        : new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}
