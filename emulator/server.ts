// The emulator over HTTP on Node (`node:http`): each request becomes a fetch
// `Request` for `emulator.fetch`, each `Response` is written back. It listens on
// 127.0.0.1 unless told otherwise, sets the emulator's origin (token issuer,
// links in e-mails) to where it listens, turns an injected dropped-connection
// fault into a destroyed socket, and with `dataFile` keeps the state in a file
// across restarts (data-file.ts: every change written before its request is
// answered). `stackkit/emulator/server`; the bin is emulator/bin.ts.
/**
 * The emulator of `stackkit/emulator` over HTTP, on Node.
 *
 * Where to start: {@link startEmulatorServer} listens (on `127.0.0.1:8102` by default,
 * {@link DEFAULT_PORT}) and answers an {@link EmulatorServer} whose `url` apps take as
 * `baseUrl`; {@link EmulatorServerOptions.dataFile} keeps the state across restarts. The
 * `stackkit-emulator` command runs the same server.
 *
 * @packageDocumentation
 * @module stackkit/emulator/server
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DataFile, readDataFile, stateEntries, writeSnapshot } from "./data-file.js";
import { createEmulator, type Emulator, type EmulatorOptions } from "./emulator.js";
import type { StateJson } from "./engine/store.js";
import { pageFilesIn } from "./page-files.js";

/**
 * What {@link startEmulatorServer} takes: the emulator's own options, where to listen, and the
 * file that keeps the state across restarts.
 *
 * @example
 * ```ts
 * const server = await startEmulatorServer({ port: 0, dataFile: ".stack-emulator.jsonl" });
 * console.log(server.url); // e.g. "http://127.0.0.1:53121"
 * ```
 */
export interface EmulatorServerOptions extends EmulatorOptions {
  /** Default 8102 (Stack Auth's local API port); 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: only this machine can reach it. */
  readonly host?: string;
  /**
   * A file holding the state: read at start when it exists (it then wins over `state`). Every change is appended to
   * it as it is made, and written before the request that made it is answered, so that a process killed at any
   * moment loses no answered change; the file is rewritten whole when it has grown well past the state it holds.
   * A file of the older form (the one JSON document `control.exportState()` answers) is read too, and rewritten.
   */
  readonly dataFile?: string;
}

/** An emulator listening over HTTP: what {@link startEmulatorServer} answers. */
export interface EmulatorServer {
  /** The origin to give apps as `baseUrl` (`http://127.0.0.1:<port>`); the API is under `/api/v1`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly emulator: Emulator;
  /**
   * Rewrites the data file as the state alone, leaving out every change since overwritten (a no-op without one).
   * Never needed to keep a change: each is in the file before its request is answered.
   *
   * @example
   * ```ts
   * await server.emulator.control.reset();
   * server.save(); // the file holds the fresh state only
   * ```
   */
  save(): void;
  /**
   * Stops listening, drops open connections, and closes the data file.
   *
   * @example
   * ```ts
   * const server = await startEmulatorServer({ port: 0 });
   * try {
   *   await runTests(server.url);
   * } finally {
   *   await server.close();
   * }
   * ```
   */
  close(): Promise<void>;
}

/** The port the server listens on by default: Stack Auth's local API port. */
export const DEFAULT_PORT = 8102;

/**
 * The state in the data file `file`, or undefined when there is no such file; throws when the file is
 * damaged anywhere but in its last line (a torn last write is left out).
 *
 * @example
 * ```ts
 * const state = readStateFile(".stack-emulator.json");
 * const emulator = await createEmulator(state ? { state } : {});
 * ```
 */
export function readStateFile(file: string): StateJson | undefined {
  return readDataFile(file).state;
}

/**
 * Writes `state` to `file` as a data file holding it, through a temporary file and a rename, so that
 * a crash never leaves half a file.
 *
 * @example
 * ```ts
 * writeStateFile(".stack-emulator.json", emulator.control.exportState());
 * ```
 */
export function writeStateFile(file: string, state: StateJson): void {
  writeSnapshot(file, stateEntries(state));
}

/**
 * Starts the emulator and serves it over HTTP (Node only): on 127.0.0.1:8102 unless `port` and
 * `host` say otherwise (port 0 picks a free one). The emulator's origin (the tokens' issuer, the
 * links in its e-mails) is where it listens; with `dataFile` the state survives restarts. Resolves
 * once it listens; rejects when the port is taken.
 *
 * @example
 * ```ts
 * import { startEmulatorServer } from "stackkit/emulator/server";
 * import { DEMO_KEYS } from "stackkit/emulator";
 *
 * const server = await startEmulatorServer({ port: 0 });
 * const { projectId, publishableClientKey } = DEMO_KEYS;
 * const app = new StackClientApp({ projectId, publishableClientKey, baseUrl: server.url, tokenStore: "memory" });
 * // ...
 * await server.close();
 * ```
 */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const { port: wantedPort = DEFAULT_PORT, host = "127.0.0.1", dataFile, ...emulatorOptions } = options;
  const saved = dataFile === undefined ? undefined : readDataFile(dataFile);

  // Listen first: the emulator's origin names the port, which may be chosen by the kernel.
  let ready!: (emulator: Emulator) => void;
  const emulatorReady = new Promise<Emulator>((resolve) => (ready = resolve));
  let journal: DataFile | undefined;

  const server = createServer((req, res) => {
    void emulatorReady
      .then((emulator) => answer(emulator, req, res, origin, () => journal?.flush()))
      .then(
        () => {},
        (error: unknown) => {
          // The engine throws a TypeError for an injected dropped connection: the client sees the socket close, as on a real network failure.
          if (error instanceof TypeError && /fetch failed/.test(error.message)) {
            req.socket.destroy();
            return;
          }
          if (res.headersSent) {
            res.destroy();
            return;
          }
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
          res.end(`The emulator failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(wantedPort, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const reachableHost = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const origin = `http://${reachableHost}:${port}`;
  let emulator: Emulator;
  try {
    emulator = await createEmulator({
      // The page, from the files built beside this module (the package's dist/emulator-ui/).
      page: pageFilesIn(),
      ...emulatorOptions,
      apiOrigin: emulatorOptions.apiOrigin ?? origin,
      ...(saved?.state ? { state: "empty" } : {}),
    });
    if (dataFile !== undefined && saved !== undefined) {
      // The file's records were parsed for this store alone: it keeps them as they are.
      if (saved.state) emulator.engine.ctx.store.load(saved.state, true);
      journal = new DataFile(dataFile, saved);
      journal.follow(emulator.engine.ctx.store);
    }
  } catch (error) {
    server.close();
    throw error;
  }
  ready(emulator);

  let closing: Promise<void> | undefined;
  return {
    url: emulator.apiOrigin,
    port,
    host,
    emulator,
    save: () => journal?.compact(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => journal?.close());
      return closing;
    },
  };
}

/** One exchange: the Node request as a fetch Request, the Response written back once `beforeAnswer` has run. */
async function answer(
  emulator: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  beforeAnswer: () => void,
): Promise<void> {
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = new Uint8Array(Buffer.concat(chunks));
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", origin);
  } catch {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad request URL\n");
    return;
  }
  const request = new Request(url, { method, headers, ...(body && body.length > 0 ? { body } : {}) });
  const response = await emulator.fetch(request);
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  const bytes = method === "HEAD" || response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  if (bytes !== undefined) out["content-length"] = String(bytes.length);
  beforeAnswer();
  res.writeHead(response.status, response.statusText || undefined, out);
  res.end(bytes);
}
