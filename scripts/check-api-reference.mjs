#!/usr/bin/env node
// @ts-check
// The API reference (`make docs`) shows every public thing with its comment.
// check-tsdoc.mjs reads the sources; this reads what TypeDoc makes of them, which
// can differ: a type alias written as an intersection (`A & B`) lists the members of
// A and B on its page only when TypeDoc is told to flatten it (@interface), and a
// type that public signatures name but no entry exports gets no page at all.
// What is checked: scripts/lib/api-reference.mjs. Prints what is missing and exits 1
// when anything is, or when TypeDoc warns.
// Usage: node scripts/check-api-reference.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkApiReference } from "./lib/api-reference.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Types that public types name but that no entry exports, on purpose: what a reader
// needs of them is on the pages that name them.
const SEEN_THROUGH = "the type-level steps of the types that name it, whose pages say what they are";
const UNEXPORTED = new Map([
  [
    "StackError (runtime/errors.ts)",
    "the base of stackkit's errors, left out so that isStackError is the test; its members are on each error's page",
  ],
  ["RedirectMethods (runtime/app/redirect-methods.ts)", "the redirectTo… methods, each on the apps' pages"],
  ["SessionHost (runtime/sessions/session.ts)", "what the runtime hands Session's constructor; apps get sessions, they do not make them"],
  ["INTERNAL_PROJECT_ID (runtime/app/objects/project.ts)", 'the id "internal", named by ProjectCurrentUser, whose comment says so'],
  ["OmitEach (runtime/app/admin-app.ts)", "Omit over each member of a union: StackAdminAppOptions' types are linked in its arguments"],
  ["Method (runtime/http/send.ts)", SEEN_THROUGH],
  ["PathItem (runtime/http/send.ts)", SEEN_THROUGH],
  ["Route (runtime/http/send.ts)", SEEN_THROUGH],
  ["Operations (react/query-options.ts)", SEEN_THROUGH],
  ["ReadOperation (react/query-options.ts)", SEEN_THROUGH],
  ["JsonOf (react/query-options.ts)", SEEN_THROUGH],
]);

const { missing, checked, counts } = await checkApiReference({ root, unexported: UNEXPORTED });
for (const line of missing) console.log(line);
console.log(
  `${counts.exports} exports, ${counts.members} of their members, ${counts.knownErrors} known errors, ` +
    `${counts.references} references to stackkit's types`,
);
console.log(`${missing.length} missing (${checked} checked)`);
process.exitCode = missing.length > 0 ? 1 : 0;
