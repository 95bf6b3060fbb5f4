// queryOptions factories for every read of the generated operation table, typed
// from generated/schema.ts: `useQuery(stackQueryOptions(app, "listTeams",
// { query: { user_id: "me" } }))`, `queryClient.prefetchQuery(…)`,
// `invalidateQueries({ queryKey: stackQueryPrefix("listTeams") })`.
// The answer is the wire JSON; errors are the runtime's typed errors.
import type { DataTag } from "@tanstack/react-query";
import type { Client } from "openapi-fetch";
import type { OperationId, operations, paths, StackkitError } from "../runtime/index.js";
// The read paths and the error classes from their own modules, not the runtime's entry:
// an app that only makes query options does not load the operation table or the apps.
import { readOperationPaths } from "../generated/read-operations.js";
import { StackAssertionError, StackConfigurationError } from "../runtime/errors.js";
import { HttpError } from "../runtime/http/request-errors.js";
import { stackQueryKey, type StackQueryKey } from "./query-keys.js";

type Operations = typeof operations;

/** The operations a query can read: GETs that are fetched (the OAuth authorize navigation is not). */
export type ReadOperationId = {
  [K in OperationId]: Operations[K] extends { readonly navigation: true } ? never : Operations[K]["method"] extends "GET" ? K : never;
}[OperationId];

/** The schema's GET operation at the path of `K`. */
type ReadOperation<K extends ReadOperationId> = Operations[K]["path"] extends keyof paths
  ? paths[Operations[K]["path"]] extends { get: infer Get }
    ? Get
    : never
  : never;

/** The parameters of a read as openapi-fetch takes them: `{ path?, query? }`. */
export type StackReadParams<K extends ReadOperationId> =
  ReadOperation<K> extends { parameters: infer P } ? Pick<P, Extract<keyof P, "path" | "query">> : never;

type JsonOf<Response> = Response extends { content: { "application/json": infer Data } } ? Data : never;

/** The JSON of a read's successful answer. */
export type StackReadData<K extends ReadOperationId> =
  ReadOperation<K> extends { responses: infer R }
    ? R extends { 200: infer Ok }
      ? JsonOf<Ok>
      : R extends { 201: infer Ok }
        ? JsonOf<Ok>
        : never
    : never;

/** Required when the operation has required parameters (a path id, say), else optional. */
export type StackReadParamsArg<K extends ReadOperationId> =
  {} extends StackReadParams<K> ? [params?: StackReadParams<K>] : [params: StackReadParams<K>];

/**
 * What stackQueryOptions returns: the key and function of a read, ready for useQuery, useSuspenseQuery,
 * prefetchQuery or fetchQuery.
 *
 * @example
 * ```ts
 * const options: StackReadQueryOptions<"listTeams"> = stackQueryOptions(app, "listTeams", { query: { user_id: "me" } });
 * const teams = await queryClient.fetchQuery(options);
 * const cached = queryClient.getQueryData(options.queryKey); // typed as the wire JSON
 * ```
 */
export interface StackReadQueryOptions<K extends ReadOperationId> {
  /** `stackQueryKey(operationId, params)`, tagged with the data and error types for getQueryData/setQueryData/getQueryState. */
  readonly queryKey: DataTag<StackQueryKey<K>, StackReadData<K>, StackkitError>;
  /** React Query passes its `signal`: a cancelled query stops its request (retries and Retry-After waits included). */
  readonly queryFn: (context?: { readonly signal?: AbortSignal }) => Promise<StackReadData<K>>;
}

/** Anything with the typed client: a StackClientApp (or server/admin app), or createStackClient()'s result. */
export interface HasStackApi {
  readonly api: Client<paths>;
}

type UntypedGet = (
  path: string,
  init?: { params?: unknown; signal?: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Every read operation id, in the order of the generated table. */
export const STACK_READ_OPERATIONS = Object.keys(readOperationPaths) as readonly ReadOperationId[];

function isReadOperation(id: string): id is ReadOperationId {
  return Object.prototype.hasOwnProperty.call(readOperationPaths, id);
}

/**
 * Query options for the read `operationId` with `params` (openapi-fetch's
 * `{ path, query }`). The key is `stackQueryKey(operationId, params)`; the
 * function calls `app.api.GET(path, { params })` and resolves to its JSON.
 * It rejects with what the runtime throws (a KnownErrors.* class for a known
 * error, HttpError, NetworkError, StackAssertionError …), never with an
 * undefined error, also when an error answer has no body. Throws a StackConfigurationError at once for an
 * operation that is not a read, or when `app` has no typed client.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data, error } = useQuery(stackQueryOptions(app, "getTeam", { path: { team_id: teamId } }));
 * if (error) return <p>{error.message}</p>;
 * return <h2>{data?.display_name}</h2>;
 * ```
 */
export function stackQueryOptions<K extends ReadOperationId>(
  app: HasStackApi,
  operationId: K,
  ...[params]: StackReadParamsArg<K>
): StackReadQueryOptions<K> {
  if (!isReadOperation(operationId)) {
    throw new StackConfigurationError(
      `stackQueryOptions: ${JSON.stringify(operationId)} is not a read operation; use one of ${STACK_READ_OPERATIONS.join(", ")}.`,
    );
  }
  if (typeof (app as Partial<HasStackApi> | null)?.api?.GET !== "function") {
    throw new StackConfigurationError(
      "stackQueryOptions needs the app (or a stack client) as its first argument: stackQueryOptions(app, operationId, params).",
    );
  }
  const path: string = readOperationPaths[operationId];
  const given = params as Record<string, unknown> | undefined;
  const queryKey = stackQueryKey(operationId, given ?? {}) as StackReadQueryOptions<K>["queryKey"];
  return {
    queryKey,
    queryFn: async (context) => {
      const api = app.api as unknown as { GET: UntypedGet };
      const signal = context?.signal;
      const init = { ...(given === undefined ? {} : { params: given }), ...(signal ? { signal } : {}) };
      const { data, error, response } = await api.GET(path, Object.keys(init).length === 0 ? undefined : init);
      // The runtime throws every failure as a typed error; this is the guard for a fetch that does not.
      if (!response.ok || error !== undefined) {
        const body = typeof error === "string" ? error : error === undefined ? "" : JSON.stringify(error);
        throw new HttpError(response.status, body, `${operationId}: GET ${path} answered HTTP ${response.status}`);
      }
      if (data === undefined) throw new StackAssertionError(`${operationId}: GET ${path} answered HTTP ${response.status} without a body`);
      return data as StackReadData<K>;
    },
  };
}
