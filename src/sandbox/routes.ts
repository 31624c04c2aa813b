import type { RouteDef } from './types.js';

export interface CompiledRoute {
  def: RouteDef;
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
  return { def, pattern: new RegExp(`^${source}/?$`), paramNames, literalSegments };
}
