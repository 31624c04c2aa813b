import type { RouteDef, SandboxArea, SandboxContext } from './types.js';

/** An area bound to a sandbox instance: its routes, and a way to put its state back to the seed. */
export interface InstalledArea {
  readonly name: string;
  readonly routes: readonly RouteDef[];
  reseed(): void;
  /** The area's whole state, structured-clone serializable (Maps, Dates), for persistence. */
  snapshot(): unknown;
  restore(state: unknown): void;
}

export type AreaInstaller = (ctx: SandboxContext) => InstalledArea;

/**
 * Wraps an area so the server can hold areas of different state types in one list. The seed is
 * made when the state is first needed: a persistent sandbox restores a saved state before, and
 * never makes one it would throw away.
 */
export function defineArea<S>(area: SandboxArea<S>): AreaInstaller {
  return (ctx) => {
    let held: S | undefined;
    const state = (): S => {
      held ??= area.seed(ctx);
      return held;
    };
    return {
      name: area.name,
      routes: area.routes(ctx, state),
      reseed: () => {
        held = area.seed(ctx);
      },
      snapshot: state,
      restore: (saved) => {
        held = saved as S;
      },
    };
  };
}
