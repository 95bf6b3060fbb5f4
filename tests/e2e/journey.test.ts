// The end-to-end journey (issue 11, "Our own end-to-end suite", completed by
// issue 12): StackClientApp, StackServerApp and StackAdminApp over HTTP against
// the emulator, through the whole client, server and admin surface, in the
// issue's order: sign-up → verify the e-mail from the mailbox → sign-in →
// profile and metadata → contact channels → teams, invitations accepted by a
// second user, member profiles → permissions → user and team API keys →
// sessions and revocation → server user and team management, impersonation →
// sign-out; then the browser-bound flows on each kind of app, in Node (TOTP,
// passkeys, OAuth with linking and connected accounts, command-line login),
// and the admin surface (project configuration, key sets, e-mail, metrics,
// webhooks, permission definitions, and the internal project's owners with
// their projects). The steps are the tests of this file, run in order on one
// emulator; each asserts what changed, read back through another app or the
// server app. Every exchange is checked against the document, and the last
// test lists the public methods by reflection and fails unless the journey
// called every one of them. The whole journey runs once against each service
// version the emulator plays (2.8.86, the default and the hosted service's,
// then 2.8.11, the spec's), each on an emulator of its own; the few steps that
// differ between versions read `serviceVersion`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { Cast, startE2E, type E2E } from "./harness.js";
import { accountJourney } from "./journey-account.js";
import { teamJourney } from "./journey-teams.js";
import { sessionJourney, signOutJourney } from "./journey-sessions.js";
import { serverJourney } from "./journey-server.js";
import { browserJourney } from "./journey-browser.js";
import { adminJourney } from "./journey-admin.js";

/** The default version first, then the others. */
const versions: readonly ServiceVersion[] = ["2.8.86", ...SERVICE_VERSIONS.filter((version) => version !== "2.8.86")];

describe.each(versions)("service version %s", (serviceVersion) => {
  let e2e: E2E | undefined;
  const world = (): E2E => {
    if (!e2e) throw new Error("the emulator is not running");
    return e2e;
  };
  const cast = new Cast();

  beforeAll(async () => {
    e2e = await startE2E({ serviceVersion });
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
  browserJourney(world);
  adminJourney(world, cast);
  coverageOfTheSurface(world);
});

function coverageOfTheSurface(world: () => E2E): void {
  describe("coverage of the client, server and admin surface", () => {
    it("calls every public async method of the apps and of every object they hand out", () => {
      const report = world().coverage.report(world().serviceVersion);
      const checked = world().checkedExchanges();
      console.info(
        [
          `e2e coverage: ${report.exercised.length}/${report.total.length} public methods (client, server and admin surface)`,
          `objects enumerated live: ${report.enumerated}; exchanges checked against the document: ${checked.exchanges}, violations: ${checked.violations}`,
          ...(report.missed.length === 0 ? [] : [`not exercised: ${report.missed.length}`, ...report.missed.map((m) => `  ${m}`)]),
          ...(report.unseen.length === 0 ? [] : [`kinds never met: ${report.unseen.join(", ")}`]),
          ...(report.unlisted.length === 0 ? [] : ["objects with methods no table lists:", ...report.unlisted.map((m) => `  ${m}`)]),
          ...(report.drift.length === 0 ? [] : ["objects whose methods differ from their table:", ...report.drift.map((m) => `  ${m}`)]),
        ].join("\n"),
      );
      expect(checked.exchanges).toBeGreaterThan(0);
      expect(report.missed, "public methods the suite never called").toEqual([]);
      expect(report.exercised).toHaveLength(report.total.length);
      expect(report.untracked, "tables of tests/unit/app/abort-subjects.ts that no kind of coverage.ts stands for").toEqual([]);
      expect(report.unseen, "kinds the suite never met (so never enumerated live)").toEqual([]);
      expect(report.drift, "objects whose methods differ from tests/unit/app/abort-subjects.ts").toEqual([]);
      expect(report.unlisted, "objects with methods handed out where no kind of coverage.ts is expected").toEqual([]);
    });
  });
}
