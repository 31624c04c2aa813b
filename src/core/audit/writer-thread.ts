// The audit writer's thread (./thread-writer.ts starts it): its own connection to the database,
// over which it validates, serializes, chains and commits the batches the group commit hands it.
import { parentPort, workerData } from 'node:worker_threads';
import { internalError } from '../errors.js';
import { openInThread } from '../store/thread.js';
import { toWire } from './wire-error.js';
import { inlineWriter, type Pending, type WriteOptions } from './writer.js';
import type { FromWriter, ToWriter, WriterData } from './writer-messages.js';

const port = parentPort;
if (port === null) throw internalError('the audit writer runs as a worker thread');
const send = (message: FromWriter): void => port.postMessage(message);

const opened = await openInThread(workerData as WriterData);
const writer = inlineWriter(opened.storage);
/**
 * Whether a batch is as durable as it will be once committed: on a backend whose commit returns
 * once on disk, and a relaxed batch, which is never waited for.
 */
const onDiskOnCommit = (options: WriteOptions): boolean => opened.commitIsDurable || !options.durable;

async function commit(id: number, batch: readonly Pending[], options: WriteOptions): Promise<void> {
  try {
    const committed = await writer.commit(batch, options);
    const told = committed.of === 'unsure' ? (options.unsure ?? []) : batch;
    // A noted entry's caller does not wait for it: that it was written is all that goes back.
    const results = committed.results.map((result, i) => {
      if ('refused' in result) return { refused: toWire(result.refused) };
      if ('noted' in result || told[i]?.noted) return null;
      return result;
    });
    // Said on disk in the same message only once it is: a batch that committed is never said failed.
    const onDisk =
      onDiskOnCommit(options) &&
      (await committed.onDisk.then(
        () => true,
        () => false,
      ));
    send({ type: 'committed', id, of: committed.of, results, ...(onDisk ? { onDisk: true as const } : {}) });
    if (onDisk) return;
    // Awaited here, so the connection closes only once the batch is on disk (or known not to be).
    await committed.onDisk.then(
      () => send({ type: 'disk', id }),
      (error: unknown) => send({ type: 'disk', id, error: toWire(error) }),
    );
  } catch (error) {
    send({ type: 'failed', id, error: toWire(error) });
  }
}

/** Commits under way: the connection closes after them, never in the middle of one. */
const running = new Set<Promise<void>>();

port.on('message', (message: ToWriter) => {
  if (message.type === 'commit') {
    const done = commit(message.id, message.batch, message.options);
    running.add(done);
    void done.finally(() => running.delete(done));
    return;
  }
  void Promise.allSettled([...running])
    .then(() => opened.close())
    .finally(() => port.close());
});
send({ type: 'ready' });
