// A temporary project that installs the packed tarball as a customer would, with
// no network: its package-lock.json is cut from the repository's own (same
// versions, same integrity hashes), so `npm install --offline` takes every
// tarball from the npm cache that `npm ci` filled. Each entry gets a `resolved`
// URL (the repository's lockfile omits them), so npm needs no package metadata:
// the cache is searched by integrity. Only when the cache lacks a tarball does
// the install go to the registry (`--prefer-offline`), and it says so.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** What a customer installs beside stackkit: the optional peers, and the types a TypeScript app has. */
const CONSUMER_DEPENDENCIES = ["react", "react-dom", "@tanstack/react-query", "@types/react", "@types/react-dom", "@types/node"];

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optional?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

interface PackageJson {
  name: string;
  version: string;
  license?: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * The environment for child processes: without the `npm_package_*` and
 * `npm_lifecycle_*` variables (and the local prefix) that `npm test` would hand
 * down, so that npm in the temporary project sees that project, not this one.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/i.test(key) || /^npm_config_local_prefix$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

/** Runs a command to its end, never through a shell; resolves with its exit code and output. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = childEnv()): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) }));
  });
}

/** The output of a finished command, for an assertion message. */
export const said = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/**
 * Writes package.json and package-lock.json of a project that depends on the
 * tarball (`file:`) and on CONSUMER_DEPENDENCIES, locking every package at the
 * version and integrity the repository's lockfile has.
 */
export function writeConsumerProject(dir: string, tarball: string, registry: string): void {
  const pkg = readJson<PackageJson>(path.join(root, "package.json"));
  const lock = readJson<{ packages: Record<string, LockEntry> }>(path.join(root, "package-lock.json"));
  const entries = lock.packages;

  // Node's lookup inside a lockfile's tree: from `node_modules/a/node_modules/b` up to the top.
  const locate = (from: string, name: string): string | undefined => {
    for (let dir = from; ;) {
      const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (entries[key]) return key;
      if (!dir) return undefined;
      const i = dir.lastIndexOf("/node_modules/");
      dir = i < 0 ? "" : dir.slice(0, i);
    }
  };
  const version = (name: string) => {
    const entry = entries[`node_modules/${name}`];
    if (!entry?.version) throw new Error(`package-lock.json has no top-level ${name}`);
    return entry.version;
  };

  const packages: Record<string, LockEntry> = {};
  const queue: { from: string; name: string; optional: boolean }[] = [
    ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ from: "", name, optional: false })),
    ...CONSUMER_DEPENDENCIES.map((name) => ({ from: "", name, optional: false })),
  ];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const key = locate(next.from, next.name);
    if (!key) {
      if (next.optional) continue; // an optional peer, or a platform package npm left out of the lock
      throw new Error(`${next.name} (needed by ${next.from || "stackkit"}) is not in package-lock.json`);
    }
    if (packages[key]) continue;
    const { dev: _dev, devOptional, peer: _peer, optional, ...entry } = entries[key]!;
    if (entry.resolved === undefined && entry.version) {
      const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
      entry.resolved = `${registry.replace(/\/?$/, "/")}${name}/-/${name.split("/").at(-1)}-${entry.version}.tgz`;
    }
    // Optional stays optional (platform packages must remain skippable); the rest is a plain dependency here.
    packages[key] = optional || devOptional ? { ...entry, optional: true } : entry;
    for (const name of Object.keys(entry.dependencies ?? {})) queue.push({ from: key, name, optional: false });
    for (const name of Object.keys(entry.optionalDependencies ?? {})) queue.push({ from: key, name, optional: true });
    for (const name of Object.keys(entry.peerDependencies ?? {})) queue.push({ from: key, name, optional: true });
  }

  const dependencies = {
    stackkit: `file:${tarball}`,
    ...Object.fromEntries(CONSUMER_DEPENDENCIES.map((name) => [name, version(name)])),
  };
  const manifest = { name: "stackkit-tarball-consumer", version: "0.0.0", private: true, type: "module", dependencies };
  const stackkit = {
    version: pkg.version,
    resolved: `file:${tarball}`,
    license: pkg.license,
    dependencies: pkg.dependencies,
    peerDependencies: pkg.peerDependencies,
    peerDependenciesMeta: pkg.peerDependenciesMeta,
    bin: pkg.bin,
    engines: pkg.engines,
  };
  const lockfile = {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: manifest.name, version: manifest.version, dependencies }, "node_modules/stackkit": stackkit, ...packages },
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lockfile, null, 2)}\n`);
}

/** The registry npm is configured with (for the `resolved` URLs, used only if the install must go online). */
export async function npmRegistry(): Promise<string> {
  const answer = await run("npm", ["config", "get", "registry"], root);
  return answer.code === 0 && /^https?:\/\//.test(answer.stdout.trim()) ? answer.stdout.trim() : "https://registry.npmjs.org/";
}

/**
 * `npm install` in the consumer project: offline first; when the cache lacks a
 * tarball (ENOTCACHED), once more with the network allowed, saying so on stderr.
 */
export async function installConsumer(dir: string): Promise<{ install: Run; offline: boolean }> {
  const common = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-update-notifier"];
  const offline = await run("npm", [...common, "--offline"], dir);
  if (offline.code === 0) return { install: offline, offline: true };
  if (!/ENOTCACHED|offline/i.test(offline.stderr + offline.stdout)) return { install: offline, offline: true };
  console.warn(
    "[tests/package] the npm cache lacks a package the tarball test needs (npm install --offline: ENOTCACHED);\n" +
      "[tests/package] installing with the network allowed (--prefer-offline). Run `npm ci` first to fill the cache.\n" +
      offline.stderr
        .split("\n")
        .filter((line) => /ENOTCACHED|npm error/.test(line))
        .slice(0, 5)
        .join("\n"),
  );
  return { install: await run("npm", [...common, "--prefer-offline"], dir), offline: false };
}
