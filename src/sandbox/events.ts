/**
 * Events emitted by sandbox operations (the spec's event catalog). The notifications area listens
 * and delivers them to matching webhook subscriptions.
 */
export interface SandboxEvent {
  eventName: string;
  /** Resource the event is about, e.g. `{cardId, cardholderId}`. */
  data: Record<string, unknown>;
  /** Scope used to pick subscriptions; defaults to the sandbox's own program/agent codes. */
  agentCode?: string;
  subagentCode?: string;
}

type Listener = (event: SandboxEvent) => void;

export class EventBus {
  private readonly listeners: Listener[] = [];

  on(listener: Listener): void {
    this.listeners.push(listener);
  }

  emit(event: SandboxEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
