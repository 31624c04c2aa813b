/**
 * A first-come, first-served lock for async work: `lock()` resolves with a release function once
 * every earlier holder has released. A holder that awaits keeps it, so nothing else joins its work.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => released);
    await previous;
    return release;
  }
}
