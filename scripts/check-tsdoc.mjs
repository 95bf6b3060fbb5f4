#!/usr/bin/env node
// @ts-check
// Every public method and option of the published entries carries TSDoc, and
// every method, function and options type shows itself in an `@example`:
//   - exported functions, and the public methods of exported classes (their
//     own and inherited ones, counted where they are declared): a comment with @example;
//   - the methods of exported interfaces (the objects the apps hand out: a
//     user, a team, an API key…): a comment with @example;
//   - exported interfaces and type aliases named *Options: a comment with
//     @example, and a comment on each of their properties.
// Prints what is missing (file:line name) and exits 1 when anything is.
// Usage: node scripts/check-tsdoc.mjs [--list]
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The entries `make docs` documents (typedoc.json), so that the two never differ.
const ENTRIES = /** @type {string[]} */ (JSON.parse(readFileSync(path.join(root, "typedoc.json"), "utf8")).entryPoints).map((f) =>
  path.join(root, f),
);

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, "tsconfig.docs.json"),
  {},
  /** @type {any} */ ({ ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }),
);
if (!config) throw new Error("tsconfig.docs.json could not be read");
const program = ts.createProgram({ rootNames: ENTRIES, options: config.options });
const checker = program.getTypeChecker();

/** @type {Map<string, string>} where -> what is missing */
const missing = new Map();
const seen = new Set();

/** @param {ts.Node} node */
const where = (node) => {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${path.relative(root, file.fileName)}:${line + 1}`;
};
/** @param {ts.Node} node */
const docsOf = (node) => ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
/** @param {ts.Node} node */
const hasDoc = (node) => docsOf(node).some((d) => (d.comment ?? "") !== "" || (d.tags?.length ?? 0) > 0);
/** @param {ts.Node} node */
const hasExample = (node) => ts.getJSDocTags(node).some((t) => t.tagName.text === "example");
const isGenerated = (/** @type {ts.Node} */ node) => /[\\/](generated|node_modules)[\\/]/.test(node.getSourceFile().fileName);

/** @param {ts.Node} node @param {string} name @param {string} what "doc" or "example" */
function need(node, name, what) {
  if (isGenerated(node)) return;
  const key = `${where(node)} ${name}`;
  if (seen.has(key)) return;
  seen.add(key);
  const ok = what === "doc" ? hasDoc(node) : hasExample(node);
  if (!ok) missing.set(key, what === "doc" ? "no TSDoc" : "no @example");
}

/** @param {ts.Declaration} decl @param {string} name */
function checkClass(decl, name) {
  if (!ts.isClassDeclaration(decl)) return;
  for (const member of decl.members) {
    const mods = ts.getCombinedModifierFlags(member);
    if (mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
    if (!member.name || ts.isPrivateIdentifier(member.name)) continue;
    if (ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member)) {
      if (
        ts.isMethodDeclaration(member) &&
        member.body === undefined &&
        decl.members.some((m) => m !== member && m.name?.getText() === member.name.getText() && ts.isMethodDeclaration(m) && m.body)
      )
        continue; // overload signatures: the implementation's doc counts
      need(member, `${name}.${member.name.getText()}`, ts.isMethodDeclaration(member) ? "example" : "doc");
    }
  }
}

/** The methods of an object type, wherever they are declared. @param {ts.Declaration} decl @param {string} name */
function checkMethods(decl, name) {
  const type = checker.getTypeAtLocation(decl);
  for (const prop of type.getProperties()) {
    for (const d of prop.getDeclarations() ?? []) {
      if (ts.isMethodSignature(d)) need(d, `${name}.${prop.name}`, "example");
    }
  }
}

/** @param {ts.Declaration} decl @param {string} name */
function checkOptions(decl, name) {
  need(decl, name, "example");
  const type = checker.getTypeAtLocation(decl);
  for (const prop of type.getProperties()) {
    for (const d of prop.getDeclarations() ?? [])
      if (ts.isPropertySignature(d) || ts.isPropertyDeclaration(d)) need(d, `${name}.${prop.name}`, "doc");
  }
}

for (const entry of ENTRIES) {
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read ${entry}`);
  for (let symbol of checker.getExportsOfModule(moduleSymbol)) {
    const name = symbol.name;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    for (const decl of symbol.getDeclarations() ?? []) {
      if (ts.isFunctionDeclaration(decl)) {
        if (decl.body === undefined && (symbol.getDeclarations() ?? []).some((d) => ts.isFunctionDeclaration(d) && d.body)) {
          // Overloads: the first signature carries the doc.
          if ((symbol.getDeclarations() ?? []).find((d) => ts.isFunctionDeclaration(d)) === decl) need(decl, name, "example");
          continue;
        }
        if ((symbol.getDeclarations() ?? []).filter(ts.isFunctionDeclaration).length > 1) continue;
        need(decl, name, "example");
      } else if (ts.isClassDeclaration(decl)) {
        checkClass(decl, name);
      } else if ((ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) && /Options$/.test(name)) {
        checkOptions(decl, name);
      } else if (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) {
        checkMethods(decl, name);
      }
    }
  }
}

const list = [...missing].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
if (process.argv.includes("--list") || list.length > 0) for (const [key, what] of list) console.log(`${what.padEnd(12)} ${key}`);
console.log(`${list.length} missing (${seen.size} checked)`);
process.exitCode = list.length > 0 ? 1 : 0;
