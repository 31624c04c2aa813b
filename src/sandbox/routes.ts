import type { RouteDef } from './types.js';

export interface CompiledRoute {
  def: RouteDef;
  /** The path's literal start (up to its first parameter): a path without it cannot match. */
  prefix: string;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
}

export function compileRoute(def: RouteDef): CompiledRoute {
  const paramNames: string[] = [];
  let literalSegments = 0;
  const source = def.path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        paramNames.push(segment.slice(1));
        return '([^/]+)';
      }
      if (segment !== '') literalSegments += 1;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const firstParam = def.path.indexOf('/:');
  const prefix = firstParam === -1 ? def.path : def.path.slice(0, firstParam + 1);
  return { def, prefix, pattern: new RegExp(`^${source}/?$`), paramNames, literalSegments };
}
