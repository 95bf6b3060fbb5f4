// Migration by imports only, proven: reference-app.ts is an app written for the
// reference SDK, with the reference's imports. This test
//   1. rewrites nothing but its import specifiers to stackkit's (the README's table),
//   2. type-checks that copy against stackkit's sources (as `import ... from "stackkit"`
//      resolves in this repository: tsconfig's paths), and
//   3. runs the file itself on stackkit, the reference's modules standing for stackkit's
//      entry (vi.mock), against the emulator served over HTTP, so that the app passes
//      nothing but the reference's own constructor options (a base URL and keys).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS, startEmulator, type TestEmulator } from "../../testing/index.js";
import { adminJourney, clientJourney, createApps, serverJourney } from "./reference-app.js";

vi.mock("@stackframe/js", () => import("../../runtime/index.js"));
vi.mock("@stackframe/stack-shared", () => import("../../runtime/index.js"));
vi.mock("@stackframe/stack-shared/dist/utils/results", () => import("../../runtime/index.js"));

const root = fileURLToPath(new URL("../..", import.meta.url));
const sourcePath = fileURLToPath(new URL("./reference-app.ts", import.meta.url));

/** The reference's module → stackkit's, for every import an app changes (README, "Migrate from `@stackframe/js`"). */
const IMPORTS: Readonly<Record<string, string>> = {
  "@stackframe/js": "stackkit",
  "@stackframe/stack-shared": "stackkit",
  "@stackframe/stack-shared/dist/utils/results": "stackkit",
  "@stackframe/react": "stackkit/react",
};

function rewriteImports(source: string): string {
  return source.replace(/(from\s+)"([^"]+)"/g, (whole, from: string, specifier: string) =>
    specifier in IMPORTS ? `${from}"${IMPORTS[specifier]}"` : whole,
  );
}

/** tsc's diagnostics of each file (name → text, beside reference-app.ts), with the repository's compiler options. */
function typeCheck(files: Readonly<Record<string, string>>): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json could not be read");
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(path.dirname(sourcePath), name), text]));
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    return text === undefined ? getSourceFile.call(host, name, language, ...rest) : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: config.options, host });
  return [...virtual.keys()].flatMap((name) => {
    const file = program.getSourceFile(name)!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
      const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${path.basename(name)}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  });
}

/** The `import { … } from "…"` statements of the README's table of imports, per column. */
function readmeImports(): { readonly reference: string[]; readonly stackkit: string[] } {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### What changes"), readme.indexOf("### What is different on purpose"));
  const reference: string[] = [];
  const stackkit: string[] = [];
  for (const row of section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))) {
    const [left = "", right = ""] = row.slice(2, -2).split(" | ");
    const imports = (cell: string) => [...cell.matchAll(/`(import (?:type )?\{[^}]+\} from "[^"]+")`/g)].map((m) => m[1]!);
    reference.push(...imports(left));
    stackkit.push(...imports(right));
  }
  return { reference, stackkit };
}

/** A module re-exporting what `statement` imports: it compiles only when every name is there. */
const reexport = (statement: string) => `${statement.replace(/^import/, "export")};\n`;

describe("the reference app, with only its imports changed", () => {
  const source = readFileSync(sourcePath, "utf8");
  const rewritten = rewriteImports(source);

  it("differs from the reference app in its import lines only", () => {
    const before = source.split("\n");
    const after = rewritten.split("\n");
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([
      ['} from "@stackframe/js";', '} from "stackkit";'],
      ['import { KnownError, KnownErrors } from "@stackframe/stack-shared";', 'import { KnownError, KnownErrors } from "stackkit";'],
      ['import { Result } from "@stackframe/stack-shared/dist/utils/results";', 'import { Result } from "stackkit";'],
    ]);
  });

  it("type-checks against stackkit", { timeout: 120_000 }, () => {
    expect(typeCheck({ "reference-app.stackkit.ts": rewritten })).toEqual([]);
  });
});

describe("the README's table of imports", () => {
  const { reference, stackkit } = readmeImports();

  it("names each module an app changes, and the app's own imports", () => {
    expect(stackkit.length).toBeGreaterThanOrEqual(14);
    for (const from of Object.keys(IMPORTS)) expect(reference.some((statement) => statement.endsWith(`from "${from}"`))).toBe(true);
    const appImports = readFileSync(sourcePath, "utf8").match(/^import [^;]+;$/gm)!;
    expect(appImports).toHaveLength(3);
    for (const statement of appImports) {
      const names = statement
        .match(/\{([^}]+)\}/)![1]!
        .split(",")
        .map((n) => n.trim().replace(/^type /, ""))
        .filter((n) => n !== "");
      const listed = reference.filter((r) => r.endsWith(statement.slice(statement.lastIndexOf(" from ")).replace(/;$/, "")));
      for (const name of names) expect(listed.some((r) => new RegExp(`[{ ,]${name}[ ,}]`).test(r))).toBe(true);
    }
  });

  it("has every name of its right column in stackkit, and of its left in the reference's declarations", { timeout: 120_000 }, () => {
    // @stackframe/react is not installed here: its names are the reference's by its 2.8.11 sources.
    const installed = reference.filter((statement) => !statement.endsWith('from "@stackframe/react"'));
    const files = Object.fromEntries([
      ...stackkit.map((statement, i) => [`readme-stackkit-${i}.ts`, reexport(statement)]),
      ...installed.map((statement, i) => [`readme-reference-${i}.ts`, reexport(statement)]),
    ]);
    expect(typeCheck(files)).toEqual([]);
  });
});

describe("the reference app, run on stackkit against the emulator", () => {
  let emulator: TestEmulator;
  beforeEach(async () => {
    emulator = await startEmulator({ http: true });
  });
  afterEach(() => emulator.close());

  it("signs up and in, reads Result errors by errorCode and instanceof, and manages the user, teams and keys; server and admin calls work on the same project", async () => {
    const { clientApp, serverApp, adminApp } = createApps({
      baseUrl: emulator.url!,
      projectId: DEMO_KEYS.projectId,
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      secretServerKey: DEMO_KEYS.secretServerKey,
      superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
      handlerUrl: "http://localhost:3000/handler", // a trusted domain of the demo project
    });

    const client = await clientJourney(clientApp, "ada@example.com", "correct horse battery");
    expect(client).toEqual({
      signUp: "ok",
      duplicate: { errorCode: "USER_EMAIL_ALREADY_EXISTS", statusCode: 409, instance: true },
      mismatch: {
        errorCode: "EMAIL_PASSWORD_MISMATCH",
        instance: true,
        message: "Wrong e-mail or password.",
        json: expect.objectContaining({ code: "EMAIL_PASSWORD_MISMATCH" }),
      },
      user: { id: expect.any(String), primaryEmail: "ada@example.com", hasPassword: true },
      updated: { displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } },
      passwordErrorCode: "PASSWORD_CONFIRMATION_MISMATCH",
      team: {
        id: expect.any(String),
        listed: ["Analytical Engines Ltd"],
        members: [client.user.id],
        profileDisplayName: "Ada Lovelace",
        selectedTeamId: client.team.id,
        isTeamAdmin: true,
      },
      apiKey: {
        value: expect.stringMatching(/^sk_/),
        // The members of the reference's just-created key (its own end-to-end tests snapshot them).
        keys: [
          "createdAt",
          "description",
          "expiresAt",
          "id",
          "isValid",
          "manuallyRevokedAt",
          "revoke",
          "type",
          "update",
          "userId",
          "value",
          "whyInvalid",
        ],
        isValid: true,
        whyInvalid: null,
        listed: [{ id: expect.any(String), lastFour: client.apiKey.value.slice(-4), keys: expect.arrayContaining(["value", "userId"]) }],
      },
      revokeCurrent: { errorCode: "CANNOT_DELETE_CURRENT_SESSION", statusCode: 400, isKnownError: true },
    });
    expect(client.apiKey.listed[0]!.keys).toEqual(client.apiKey.keys);

    const server = await serverJourney(serverApp, client.user.id, client.apiKey.value);
    expect(server).toEqual({
      created: { displayName: "Grace Hopper", primaryEmail: "grace@example.com", serverMetadata: { plan: "pro" } },
      duplicate: { errorCode: "USER_EMAIL_ALREADY_EXISTS", statusCode: 409, isKnownError: true, instance: true },
      listed: true,
      byId: expect.any(String),
      byApiKey: client.user.id,
      serverMetadata: { plan: "enterprise" },
      team: {
        fetched: "Compilers",
        listed: true,
        members: [client.user.id, server.byId].sort(),
        afterRemoval: [server.byId],
        graceIsAdmin: true,
        deleted: null,
      },
      deletedUser: null,
    });

    const admin = await adminJourney(adminApp);
    expect(admin).toEqual({
      project: { id: DEMO_KEYS.projectId, description: "Where engines are analysed", configKeys: true },
      billing: { description: "Sees and pays invoices", containedPermissionIds: [] },
      again: expect.any(String),
      afterDelete: false,
      keySet: {
        hasPublishable: true,
        hasSecret: true,
        superSecretAdminKey: undefined,
        revokedIsValid: false,
        whyInvalid: "manually-revoked",
      },
    });
  });
});
