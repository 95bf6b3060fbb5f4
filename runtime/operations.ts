// Finds the operation a request is for, so the pipeline can apply its rules
// (which tokens it takes, whether it may be resent) to any request the typed
// client builds. Reads the compact route table, not the full one.
import {
  operationRoutes,
  ROUTE_JSON_RESPONSE,
  ROUTE_REFRESH_TOKEN_HEADER,
  ROUTE_STACK_HEADERS,
  ROUTE_TEXT_RESPONSE,
  type HttpMethod,
  type OperationId,
} from "../generated/operations.js";
import { isIdempotentMethod } from "./retry.js";

export interface MatchedOperation {
  /** Undefined for a path the document does not list. */
  readonly operationId: OperationId | undefined;
  readonly method: HttpMethod;
  readonly path: string;
  /** False for the token endpoint and the authorize navigation. */
  readonly stackHeaders: boolean;
  readonly refreshTokenHeader: boolean;
  readonly idempotent: boolean;
  readonly responseBody: "json" | "text" | "none";
}

interface Route {
  readonly op: MatchedOperation;
  readonly pattern: RegExp;
  readonly params: number;
}

// Concrete paths win over templated ones (`/users/me` before `/users/{user_id}`),
// as OpenAPI says they must.
const routes: Route[] = operationRoutes
  .map(([operationId, method, path, flags]) => ({
    op: {
      operationId,
      method,
      path,
      stackHeaders: (flags & ROUTE_STACK_HEADERS) !== 0,
      refreshTokenHeader: (flags & ROUTE_REFRESH_TOKEN_HEADER) !== 0,
      idempotent: isIdempotentMethod(method),
      responseBody: flags & ROUTE_JSON_RESPONSE ? "json" : flags & ROUTE_TEXT_RESPONSE ? "text" : "none",
    } satisfies MatchedOperation,
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    params: (path.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

/**
 * The operation for `method` and a path relative to `/api/v1`. A path the
 * document does not list (a newer endpoint called through `request()`) gets the
 * general rules: the x-stack headers, a JSON answer, and resend only if the
 * method is idempotent.
 */
export function matchOperation(method: string, path: string): MatchedOperation {
  const upper = method.toUpperCase() as HttpMethod;
  const route = routes.find((r) => r.op.method === upper && r.pattern.test(path));
  if (route) return route.op;
  return {
    operationId: undefined,
    method: upper,
    path,
    stackHeaders: true,
    refreshTokenHeader: false,
    idempotent: isIdempotentMethod(upper),
    responseBody: "json",
  };
}
