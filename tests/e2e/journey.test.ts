// The end-to-end journey (issue 11, "Our own end-to-end suite"): StackClientApp,
// StackServerApp and StackAdminApp over HTTP against the emulator, through the
// whole client and server surface, in the issue's order: sign-up → verify the
// e-mail from the mailbox → sign-in → profile and metadata → contact channels →
// teams, invitations accepted by a second user, member profiles → permissions →
// user and team API keys → sessions and revocation → server user and team
// management, impersonation → sign-out. The steps are the tests of this file,
// run in order on one emulator; each asserts what changed, read back through
// another app or the server app. Every exchange is checked against the
// document, and the last test measures which public methods the journey called.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Cast, startE2E, type E2E } from "./harness.js";
import { accountJourney } from "./journey-account.js";
import { teamJourney } from "./journey-teams.js";
import { sessionJourney, signOutJourney } from "./journey-sessions.js";
import { serverJourney } from "./journey-server.js";

/** The coverage the journey reaches; it may only go up (raise it when it does). */
const EXERCISED_AT_LEAST = 213;

let e2e: E2E | undefined;
const world = (): E2E => {
  if (!e2e) throw new Error("the emulator is not running");
  return e2e;
};
const cast = new Cast();

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(() => {
  expect(world().takeViolations(), "exchanges that break the document").toEqual([]);
});

accountJourney(world, cast);
teamJourney(world, cast);
sessionJourney(world, cast);
serverJourney(world, cast);
signOutJourney(world, cast);

describe("coverage of the client and server surface", () => {
  it(`calls at least ${EXERCISED_AT_LEAST} public async methods (all but the browser-bound ones of the next issue)`, () => {
    const report = world().coverage.report();
    const checked = world().checkedExchanges();
    console.info(
      [
        `e2e coverage: ${report.exercised.length}/${report.total.length} public methods (client and server surface)`,
        `exchanges checked against the document: ${checked.exchanges}, violations: ${checked.violations}`,
        `not exercised, browser-bound (next issue): ${report.nextIssue.length}`,
        ...report.nextIssue.map((m) => `  ${m}`),
        `not exercised, other: ${report.missed.length}`,
        ...report.missed.map((m) => `  ${m}`),
      ].join("\n"),
    );
    expect(checked.exchanges).toBeGreaterThan(0);
    expect(report.drift, "objects whose methods differ from tests/unit/app/abort-subjects.ts").toEqual([]);
    expect(report.exercised.length).toBeGreaterThanOrEqual(EXERCISED_AT_LEAST);
  });
});
