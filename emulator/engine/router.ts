// Routes a request to its operation with the generated operation table, as the
// runtime does: concrete paths before templated ones (`/users/me` before
// `/users/{user_id}`), parameters decoded by name.
import { operationRoutes, type OperationId } from "../../generated/operations.js";

interface Route {
  readonly operationId: OperationId;
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const routes: Route[] = operationRoutes
  .flatMap(([path, ...ops]) => {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}$`);
    return ops.map(([method, operationId]) => ({ operationId, method, names, pattern }));
  })
  .sort((a, b) => a.names.length - b.names.length);

export interface Matched {
  readonly operationId: OperationId;
  readonly params: Readonly<Record<string, string>>;
}

/** The operation for `method` and a path under `/api/v1`; undefined when the API has none. */
export function route(method: string, path: string): Matched | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  for (const r of routes) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(trimmed);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.names.forEach((name, i) => (params[name] = safeDecode(m[i + 1] ?? "")));
    return { operationId: r.operationId, params };
  }
  return undefined;
}

/** Whether any operation (of those `served` keeps) has this path, under whatever method: 405 rather than 404. */
export function hasPath(path: string, served: (operationId: OperationId) => boolean = () => true): boolean {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return routes.some((r) => served(r.operationId) && r.pattern.test(trimmed));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
