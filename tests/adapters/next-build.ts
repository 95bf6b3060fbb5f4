// Builds examples/next-app with a given Next.js major and serves it with
// `next start` on 127.0.0.1, for next-app.test.ts.
//
// The build runs in a copy under .tmp/ (ignored by git), so a test run never
// writes into the example (`.next/`, `next-env.d.ts`, the tsconfig changes
// Next makes) and parallel runs do not meet. The copy sits inside the
// repository, so `react` and the SDK's own dependencies resolve from its
// node_modules. In the copy:
// - `node_modules/stackkit` is the runtime bundled with esbuild, standing in
//   for the installed package (Turbopack does not map the sources' `.js`
//   imports to `.ts` files, so the sources cannot be imported directly);
// - Next 15 is the `next15` alias, hard-linked as `node_modules/next` (instant,
//   no copy), so that the app's `next/*` imports and Next's own resolve to it;
// - next.config.mjs wraps the example's config to skip the type check (the
//   repository's tsc checks the example against the sources; the bundle has
//   no declarations) and, on Next 16, the upgrade nudge, which may ask the
//   npm registry. Telemetry and the lockfile patcher (which also asks the
//   registry) are off through the environment: nothing leaves the machine.
import { spawn, type ChildProcess, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLE = join(root, "examples/next-app");

export type NextMajor = 15 | 16;

export interface ServedExample {
  readonly url: string;
  /** The server's output so far, for failure messages. */
  serverLog(): string;
  stop(): Promise<void>;
}

/** The environment of Next's processes: this one's, without vitest's NODE_ENV=test, plus `extra`. */
function nextEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === "NODE_ENV" || key.startsWith("VITEST") || /^npm_(package|lifecycle)_/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1", CI: "1", NO_COLOR: "1", ...extra };
}

function prepare(major: NextMajor): { dir: string; nextBin: string } {
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(root, ".tmp", `next-app-${major}-`));
  const skipped = new Set([".next", "node_modules", "next-env.d.ts"]);
  cpSync(EXAMPLE, dir, { recursive: true, filter: (source) => !skipped.has(source.slice(EXAMPLE.length + 1).split("/")[0] ?? "") });
  renameSync(join(dir, "next.config.mjs"), join(dir, "next.config.example.mjs"));
  const experimental = major === 16 ? "experimental: { ...example.experimental, agentUpgrade: false }," : "";
  writeFileSync(
    join(dir, "next.config.mjs"),
    `import example from "./next.config.example.mjs";\n` +
      `export default { ...example, typescript: { ...example.typescript, ignoreBuildErrors: true }, ${experimental} };\n`,
  );
  const sdk = join(dir, "node_modules/stackkit");
  mkdirSync(sdk, { recursive: true });
  buildSync({
    entryPoints: [join(root, "runtime/index.ts")],
    outfile: join(sdk, "index.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    packages: "external",
    logLevel: "error",
  });
  writeFileSync(join(sdk, "package.json"), JSON.stringify({ name: "stackkit", type: "module", exports: { ".": "./index.js" } }));
  if (major === 16) return { dir, nextBin: join(root, "node_modules/next/dist/bin/next") };
  execFileSync("cp", ["-al", join(root, "node_modules/next15"), join(dir, "node_modules/next")]);
  return { dir, nextBin: join(dir, "node_modules/next/dist/bin/next") };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${args.join(" ")} exited with ${code}:\n${output}`))));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}/sign-in`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`next start did not answer within 30 s:\n${log()}`);
}

/** Builds the example with Next `major`, starts it with `env` (the project's settings), and waits until it answers. */
export async function serveExample(major: NextMajor, env: Record<string, string>): Promise<ServedExample> {
  const { dir, nextBin } = prepare(major);
  const childEnv = nextEnv(env);
  try {
    await run(process.execPath, [nextBin, "build", ...(major === 15 ? ["--no-lint"] : [])], dir, childEnv);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // In this process's group, so that an interrupted test run stops it too.
  const child = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: dir,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, serverLog: () => log, stop };
}
