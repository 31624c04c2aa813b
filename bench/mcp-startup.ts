import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface StartupSample {
  /** Spawn to the answer of `tools/list`, in ms. */
  ms: number;
  tools: number;
  /** Size of the `tools/list` result as JSON, in bytes. */
  bytes: number;
  /** Peak resident memory of the server process, in MB (from /proc, Linux). */
  rssMb: number;
  /** The tools listed, when asked for (`keepList`). */
  list?: unknown[];
}

/**
 * Spawns an MCP server on stdio, sends initialize, initialized and tools/list as a client would,
 * and times the answer to tools/list. The process is killed afterwards.
 */
export function measureStartup(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  options: { keepList?: boolean } = {},
): Promise<StartupSample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not answer tools/list in 20 s`));
    }, 20_000);
    const send = (message: unknown): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (line.trim() === '') continue;
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (message.id === 2) {
          const ms = performance.now() - started;
          let rssMb = Number.NaN;
          try {
            const status = readFileSync(`/proc/${child.pid}/status`, 'utf8') as string;
            const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
            if (hwm?.[1]) rssMb = Number(hwm[1]) / 1024;
          } catch {
            // not Linux: memory unknown
          }
          clearTimeout(timer);
          child.kill();
          resolve({
            ms,
            tools: message.result?.tools?.length ?? 0,
            bytes: Buffer.byteLength(JSON.stringify(message.result)),
            rssMb,
            ...(options.keepList === true ? { list: message.result?.tools ?? [] } : {}),
          });
        }
      }
    });
    child.on('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}
