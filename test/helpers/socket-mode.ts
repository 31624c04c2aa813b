import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One WebSocket frame: FIN set, unmasked (server to client). */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65_536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([
            Buffer.from([0x80 | opcode, 127]),
            Buffer.from(new BigUint64Array([BigInt(length)]).buffer).reverse(),
          ]);
  return Buffer.concat([head, payload]);
}

/** Reads the client's masked frames from a buffer; returns the complete ones and the rest. */
function readFrames(buffer: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let offset = 0;
  for (;;) {
    if (buffer.length - offset < 2) break;
    const opcode = (buffer[offset] ?? 0) & 0x0f;
    const second = buffer[offset + 1] ?? 0;
    let length = second & 0x7f;
    let at = offset + 2;
    if (length === 126) {
      if (buffer.length < at + 2) break;
      length = buffer.readUInt16BE(at);
      at += 2;
    } else if (length === 127) {
      if (buffer.length < at + 8) break;
      length = Number(buffer.readBigUInt64BE(at));
      at += 8;
    }
    const masked = (second & 0x80) !== 0;
    const mask = masked ? buffer.subarray(at, at + 4) : undefined;
    if (masked) at += 4;
    if (buffer.length < at + length) break;
    const payload = Buffer.from(buffer.subarray(at, at + length));
    if (mask !== undefined)
      for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
    frames.push({ opcode, payload });
    offset = at + length;
  }
  return { frames, rest: buffer.subarray(offset) };
}

/**
 * A stand-in for Slack's Socket Mode endpoint: a WebSocket server (RFC 6455, text frames, ping and
 * close) that says hello to the app, sends it envelopes and records the acknowledgements it gets.
 */
export class SocketModeStandIn {
  readonly acks: { envelope_id: string; payload?: unknown }[] = [];
  #server: Server | undefined;
  #sockets: Socket[] = [];
  #url = '';
  connections = 0;

  static async start(): Promise<SocketModeStandIn> {
    const stand = new SocketModeStandIn();
    stand.#server = createServer((_req, res) => res.writeHead(426).end());
    stand.#server.on('upgrade', (req, socket: Socket) => {
      const key = req.headers['sec-websocket-key'];
      if (typeof key !== 'string') {
        socket.destroy();
        return;
      }
      const accept = createHash('sha1')
        .update(key + GUID)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      stand.#sockets.push(socket);
      stand.connections += 1;
      let pending: Buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
        pending = rest;
        for (const { opcode, payload } of frames) {
          if (opcode === 0x9) socket.write(frame(0xa, payload));
          else if (opcode === 0x8) socket.end(frame(0x8, payload));
          else if (opcode === 0x1) stand.acks.push(JSON.parse(payload.toString('utf8')));
        }
      });
      socket.on('error', () => socket.destroy());
      socket.write(frame(0x1, Buffer.from(JSON.stringify({ type: 'hello', num_connections: 1 }))));
    });
    await new Promise<void>((resolve) => stand.#server?.listen(0, '127.0.0.1', resolve));
    stand.#url = `ws://127.0.0.1:${(stand.#server.address() as AddressInfo).port}/link`;
    return stand;
  }

  get url(): string {
    return this.#url;
  }

  /** Sends an envelope to every connected app. */
  send(envelope: Record<string, unknown>): void {
    const data = frame(0x1, Buffer.from(JSON.stringify(envelope)));
    for (const socket of this.#sockets) if (!socket.destroyed) socket.write(data);
  }

  get connected(): boolean {
    return this.#sockets.some((socket) => !socket.destroyed);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
