import { randomUUID } from 'node:crypto';
import type { ServiceClient } from '../client/index.js';
import type { Actor } from '../policy/types.js';
import { actorName, memoryCheckpoints } from '../run-tool.js';
import type { ToolContext, ToolDefaults } from '../tool.js';

/** The context of a tool's `preview`, run when an approval opens: nothing is executed or kept. */
export function previewContext(
  deps: { client: ServiceClient; defaults: ToolDefaults },
  actor: Actor,
  onProgress: ((message: string) => void) | undefined,
): ToolContext {
  const checkpoints = memoryCheckpoints();
  return {
    client: deps.client,
    defaults: deps.defaults,
    actorName: actorName(actor),
    // Quotes are not deduplicated by the service; a preview needs no stable id.
    requestId: randomUUID(),
    once: async <T>(key: string, produce: () => Promise<T>): Promise<T> => {
      const saved = checkpoints.get(key);
      if (saved !== undefined) return saved.value as T;
      const value = await produce();
      checkpoints.set(key, value);
      return value;
    },
    progress: (message) => onProgress?.(message),
  };
}
