// @ts-check
// What scripts/check-api-reference.mjs checks, on any package laid out like this one
// (tests/fixtures/api-reference/ is a small one that fails each check on purpose).
// TypeDoc converts the package's entries as `make docs` does (typedoc.json, no files
// written); the TypeScript program it converted says what the pages must show.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Application, Converter, TSConfigReader, TypeDocReader } from "typedoc";
import ts from "typescript";

const KIND_VARIABLE = 32;
const KIND_FUNCTION = 64;
const KIND_CLASS = 128;
const KIND_REFERENCE = 4194304;

/**
 * @typedef {object} ApiReferenceCheck
 * @property {string[]} missing what the reference lacks, one line each
 * @property {number} checked how many things were checked
 * @property {{ exports: number, members: number, knownErrors: number, references: number }} counts
 */

/**
 * Checks the API reference of the package at `root`:
 *   - every typed entry of package.json's exports is documented, titled by its import
 *     name (`stackkit/react`), with an overview (a comment with @packageDocumentation);
 *   - every export of an entry has a comment, every function an @example; every member
 *     of an exported class, interface, object type or object (those of intersections,
 *     Omit<> and unions included) is on its page, with its comment when it has one in
 *     the source, and every method with its comment and @example;
 *   - every known error of the catalogue (generated/openapi.json) is a member of
 *     `KnownErrors` whose comment gives its code, HTTP status, message and details;
 *   - no type that a page names is left without a page of its own, but those of
 *     `unexported` and the known errors' instance types (documented by KnownErrors).
 * TypeDoc's warnings are printed and count as missing.
 * @param {{ root: string, unexported?: ReadonlyMap<string, string> }} options
 *   `unexported`: `Name (path/in/package.ts)` -> why it has no page
 * @returns {Promise<ApiReferenceCheck>}
 */
export async function checkApiReference({ root, unexported = new Map() }) {
  const readJson = (/** @type {string} */ file) => JSON.parse(readFileSync(path.join(root, file), "utf8"));
  const pkg = readJson("package.json");
  /** @type {string[]} */
  const missing = [];
  let checked = 0;
  /** @param {boolean} ok @param {string} what */
  const expectThat = (ok, what) => {
    checked++;
    if (!ok) missing.push(what);
  };
  const counts = { exports: 0, members: 0, knownErrors: 0, references: 0 };

  const app = await Application.bootstrapWithPlugins({ options: path.join(root, "typedoc.json") }, [
    new TypeDocReader(),
    new TSConfigReader(),
  ]);
  /** @type {ts.Program | undefined} */
  let program;
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    program = context.programs[0];
  });
  const project = await app.convert();
  if (!project || !program) throw new Error(`TypeDoc could not convert the entries of ${root}`);
  app.validate(project);
  expectThat(!app.logger.hasWarnings() && !app.logger.hasErrors(), "TypeDoc: warnings or errors (printed above)");
  const checker = program.getTypeChecker();
  /** @type {any} the project as `typedoc --json` writes it */
  const json = app.serializer.projectToObject(project, /** @type {any} */ (root));
  /** @type {Map<number, any>} */
  const byId = new Map();
  (function index(/** @type {any} */ node) {
    if (Array.isArray(node)) return node.forEach(index);
    if (!node || typeof node !== "object") return;
    if (typeof node.id === "number" && typeof node.kind === "number") byId.set(node.id, node);
    for (const key of Object.keys(node)) if (key !== "target") index(node[key]);
  })(json);

  // THE KNOWN ERRORS' CATALOGUE

  /** @type {[string, any][]} code -> schema */
  const catalogue = Object.entries(readJson("generated/openapi.json").components.schemas).filter(([, s]) => s["x-stack-known-error"]);
  const errorClasses = new Set(catalogue.map(([, s]) => s["x-stack-known-error"].class));
  /** A known error's instance type (generated/known-errors.ts), which no entry exports. @param {any} type */
  const isKnownErrorType = (type) =>
    type.target?.packagePath === "generated/known-errors.ts" && errorClasses.has(type.target.qualifiedName);
  const mainModule = (json.children ?? []).find((/** @type {any} */ m) => m.name === pkg.name);
  const findIn = (/** @type {any} */ module, /** @type {string} */ name, /** @type {number} */ kind) =>
    module?.children?.find((/** @type {any} */ c) => c.name === name && c.kind === kind);
  const knownErrorClass = findIn(mainModule, "KnownError", KIND_CLASS);

  // WHAT THE PAGES SHOW

  /** @param {any} r */
  const commentsOf = (r) =>
    [r.comment, ...(r.signatures ?? []).map((/** @type {any} */ s) => s.comment), r.getSignature?.comment, r.setSignature?.comment].filter(
      Boolean,
    );
  /** @param {any} comment */
  const textOf = (comment) => (comment.summary ?? []).map((/** @type {any} */ p) => p.text).join("");
  /** @param {any} r */
  const hasComment = (r) =>
    commentsOf(r).some(
      (c) =>
        textOf(c).trim() !== "" ||
        // A deprecated alias says what to use instead.
        (c.blockTags ?? []).some((/** @type {any} */ t) => t.tag === "@deprecated" && textOf({ summary: t.content }).trim() !== ""),
    );
  /** @param {any} r */
  const hasExample = (r) => commentsOf(r).some((c) => (c.blockTags ?? []).some((/** @type {any} */ t) => t.tag === "@example"));

  /** A page's members, following a re-export. @param {any} r @returns {any[]} */
  const membersOf = (r) =>
    r.kind === KIND_REFERENCE ? membersOf(byId.get(r.target) ?? {}) : (r.children ?? r.type?.declaration?.children ?? []);
  /**
   * The members a reader reaches from a type shown on a page: an object literal's, and
   * those of the pages its links lead to (`A & B`, `A | B`, `Omit<A, "x">`, a
   * conditional's branches). A known error's instance type has no page: its members are KnownError's.
   * @param {any} type @param {Set<any>} [seen] @returns {any[]}
   */
  function reachable(type, seen = new Set()) {
    if (!type || typeof type !== "object" || seen.has(type)) return [];
    seen.add(type);
    const args = () => (type.typeArguments ?? []).flatMap((/** @type {any} */ t) => reachable(t, seen));
    if (type.type === "union" || type.type === "intersection") return type.types.flatMap((/** @type {any} */ t) => reachable(t, seen));
    if (type.type === "conditional") return [...reachable(type.trueType, seen), ...reachable(type.falseType, seen)];
    if (type.type === "reflection") return type.declaration.children ?? [];
    if (type.type !== "reference") return [];
    if (isKnownErrorType(type)) return [...membersOf(knownErrorClass ?? {}), ...args()];
    const page = typeof type.target === "number" ? byId.get(type.target) : undefined;
    if (!page || seen.has(page)) return args();
    seen.add(page);
    return [...membersOf(page), ...reachable(page.type, seen), ...args()];
  }

  // WHAT THE PROGRAM EXPORTS

  const isOwn = (/** @type {ts.Declaration} */ d) => !/[\\/]node_modules[\\/]/.test(d.getSourceFile().fileName);
  const hasTSDoc = (/** @type {ts.Declaration} */ d) =>
    ts.getJSDocCommentsAndTags(d).some((c) => ts.isJSDoc(c) && (c.comment ?? "") !== "");
  const isSchema = (/** @type {ts.Declaration} */ d) => /[\\/]generated[\\/]schema\.ts$/.test(d.getSourceFile().fileName);
  /** What TypeDoc documents (typedoc.json: excludePrivate, excludeProtected, excludeInternal). @param {ts.Symbol} symbol */
  function isPublic(symbol) {
    if (symbol.name.startsWith("__") || symbol.name.startsWith("#") || symbol.name === "prototype") return false;
    const decls = symbol.getDeclarations() ?? [];
    if (decls.length === 0 || !decls.some(isOwn)) return false;
    if (decls.some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === "internal"))) return false;
    return decls.every((d) => !(ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)));
  }
  const isObject = (/** @type {ts.Type} */ t) =>
    !!(t.flags & ts.TypeFlags.Intersection) ||
    (!!(t.flags & ts.TypeFlags.Object) && !(/** @type {ts.ObjectType} */ (t).objectFlags & ts.ObjectFlags.Mapped));
  /** The members a page of `symbol` must show (of each member of a union). @param {ts.Symbol} symbol @returns {ts.Symbol[]} */
  function expectedMembers(symbol) {
    const decls = symbol.getDeclarations() ?? [];
    if (decls.some(ts.isClassDeclaration)) {
      const statics = checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol));
      return [...checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)), ...statics];
    }
    if (decls.some(ts.isVariableDeclaration)) {
      // An object of helpers or a table (Result, DEMO_KEYS, operations), not a function.
      const type = checker.getTypeOfSymbol(symbol);
      return isObject(type) && type.getCallSignatures().length === 0 ? checker.getPropertiesOfType(type) : [];
    }
    if (!decls.some((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d))) return [];
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const objects = type.isUnion() ? type.types.filter(isObject) : isObject(type) ? [type] : [];
    return objects.flatMap((t) => checker.getPropertiesOfType(t));
  }

  // EACH ENTRY: its title, its overview, its exports and their members

  const names = Object.keys(pkg.exports)
    .filter((key) => typeof pkg.exports[key] === "object" && pkg.exports[key].types)
    .map((key) => (key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`));
  const modules = new Map((json.children ?? []).map((/** @type {any} */ m) => [m.name, m]));
  for (const name of names)
    expectThat(modules.has(name), `entry ${name}: no module of that name (there are ${[...modules.keys()].join(", ")})`);
  for (const [name, module] of modules) {
    expectThat(names.includes(name), `module ${name}: not an entry of package.json's exports (titled by its @module tag?)`);
    expectThat(hasComment(module), `entry ${name}: no overview (a file comment with @packageDocumentation)`);
    const fileName = project.getSymbolIdFromReflection(/** @type {any} */ (project.getReflectionById(module.id)))?.fileName;
    const source = fileName && program.getSourceFile(fileName);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`cannot read the source of ${name}`);
    /** @type {Map<string, any[]>} */
    const children = new Map();
    for (const child of module.children ?? []) children.set(child.name, [...(children.get(child.name) ?? []), child]);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      counts.exports++;
      const pages = children.get(exported.name) ?? [];
      expectThat(pages.length > 0, `${name}: ${exported.name}: no page`);
      if (pages.length === 0 || pages.every((p) => p.kind === KIND_REFERENCE)) continue; // another entry's page
      expectThat(pages.some(hasComment), `${name}: ${exported.name}: no comment`);
      if (pages.some((p) => p.kind === KIND_FUNCTION)) expectThat(pages.some(hasExample), `${name}: ${exported.name}: no @example`);
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const shown = pages.flatMap((p) => [...membersOf(p), ...reachable(p.type)]);
      const seen = new Set();
      for (const member of expectedMembers(symbol)) {
        if (!isPublic(member) || seen.has(member.name)) continue;
        seen.add(member.name);
        counts.members++;
        const on = shown.filter((m) => m.name === member.name);
        const where = `${name}: ${exported.name}.${member.name}`;
        expectThat(on.length > 0, `${where}: not on ${exported.name}'s page`);
        const decls = member.getDeclarations() ?? [];
        // openapi-typescript's types of the document (generated/schema.ts) keep the document's words.
        if (on.length === 0 || decls.every(isSchema)) continue;
        // A method of a class or an interface (check-tsdoc.mjs asks the same of the sources);
        // an object's function (`Result.ok`) needs a comment, not an @example.
        const isMethod = decls.some(
          (d) => ts.isMethodSignature(d) || (ts.isMethodDeclaration(d) && !ts.isObjectLiteralExpression(d.parent)),
        );
        // A data member without TSDoc (`id`) is shown by its name and type; a function never is.
        if (isMethod || decls.some(ts.isMethodDeclaration) || decls.some(hasTSDoc))
          expectThat(on.some(hasComment), `${where}: its comment is not on the page`);
        if (isMethod) expectThat(on.some(hasExample), `${where}: its @example is not on the page`);
      }
    }
  }

  // THE KNOWN ERRORS: code, status, message and the shape of the details of each

  const errorPages = new Map(membersOf(findIn(mainModule, "KnownErrors", KIND_VARIABLE) ?? {}).map((m) => [m.name, m]));
  for (const [code, schema] of catalogue) {
    counts.knownErrors++;
    const ext = schema["x-stack-known-error"];
    const where = `KnownErrors.${ext.class}`;
    const page = errorPages.get(ext.class);
    expectThat(!!page, `${where} (${code}): not on KnownErrors' page`);
    if (!page) continue;
    const text = commentsOf(page).map(textOf).join("\n");
    expectThat(text.startsWith(`\`${code}\``), `${where}: its comment does not start with its code, \`${code}\``);
    expectThat(text.includes(ext.abstract ? "abstract parent" : `(HTTP ${ext.status})`), `${where}: its comment does not give its status`);
    const message = [ext.message].flat()[0];
    expectThat(text.includes(`Message: ${message}`), `${where}: its comment does not give its message, ${JSON.stringify(message)}`);
    // The shape names every key of the details; "none." when there are none.
    const details = /^Details: (.*)$/m.exec(text)?.[1];
    const keys = Object.keys(schema.properties?.details?.properties ?? {});
    const shown = schema.properties?.details ? keys.every((key) => details?.includes(key)) : details === "none.";
    expectThat(
      details !== undefined && shown,
      `${where}: its comment does not give the shape of its details (${keys.join(", ") || "none"})`,
    );
  }

  // NO TYPE WITHOUT A PAGE: a reference to a type of the package that TypeDoc could not link

  /** @type {Map<string, Set<string>>} `Name (file)` -> where it is named */
  const unlinked = new Map();
  const stillNamed = new Set();
  (function walk(/** @type {any} */ node, /** @type {string} */ at) {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, at));
    if (!node || typeof node !== "object") return;
    if (node.type === "reference" && node.package === pkg.name && !node.refersToTypeParameter) {
      counts.references++;
      const key = typeof node.target === "object" ? `${node.target.qualifiedName} (${node.target.packagePath})` : undefined;
      if (key && unexported.has(key)) stillNamed.add(key);
      else if (key && !isKnownErrorType(node)) unlinked.set(key, (unlinked.get(key) ?? new Set()).add(at));
    }
    const named = typeof node.kind === "number" && typeof node.name === "string" && !node.name.startsWith("__");
    const here = named ? (at ? `${at}.${node.name}` : node.name) : at;
    for (const key of Object.keys(node)) if (key !== "target") walk(node[key], here);
  })(json.children, "");
  for (const key of unexported.keys()) expectThat(stillNamed.has(key), `${key}: named nowhere any more; no need to excuse it`);
  for (const [type, where] of [...unlinked].sort()) {
    const places = [...where];
    expectThat(
      false,
      `${type}: no page, named by ${places.slice(0, 3).join(", ")}${places.length > 3 ? ` and ${places.length - 3} more` : ""}`,
    );
  }
  return { missing, checked, counts };
}
