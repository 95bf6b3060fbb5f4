// The reference's redirectTo… methods: where each goes with the default and
// overridden URL sets, and the after_auth_return_to round trip through them.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientAppContext } from "../../../runtime/app/context.js";
import { createNavigator, trustedOriginsOf } from "../../../runtime/app/redirect.js";
import { createRedirectMethods, type RedirectMethods } from "../../../runtime/app/redirect-methods.js";
import type { HandlerUrls } from "../../../runtime/app/urls.js";
import { StackConfigurationError } from "../../../runtime/errors.js";
import { fakeBrowser, testAppContext, type TestAppOptions } from "../../helpers/app-context.js";
import { useFakeClock } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

const noRequests = () => {
  throw new Error("a redirect sends no request");
};

function appAt(href: string | null, options: TestAppOptions = {}) {
  const browser = href === null ? null : fakeBrowser(href).browser;
  const app = testAppContext(noRequests, { ...options, browser });
  return { ...app, methods: createRedirectMethods(app.ctx) };
}

const here = "https://app.example.com/projects?tab=1";
const returnHere = "after_auth_return_to=%2Fprojects%3Ftab%3D1";

const defaultTargets: [keyof RedirectMethods, string][] = [
  ["redirectToSignIn", `/handler/sign-in?${returnHere}`],
  ["redirectToSignUp", `/handler/sign-up?${returnHere}`],
  ["redirectToSignOut", "/handler/sign-out"],
  ["redirectToEmailVerification", "/handler/email-verification"],
  ["redirectToPasswordReset", "/handler/password-reset"],
  ["redirectToForgotPassword", "/handler/forgot-password"],
  ["redirectToHome", "/"],
  ["redirectToOAuthCallback", "/handler/oauth-callback"],
  ["redirectToMagicLinkCallback", "/handler/magic-link-callback"],
  ["redirectToAfterSignIn", "/"],
  ["redirectToAfterSignUp", "/"],
  ["redirectToAfterSignOut", "/"],
  ["redirectToAccountSettings", "/handler/account-settings"],
  ["redirectToError", "/handler/error"],
  ["redirectToTeamInvitation", "/handler/team-invitation"],
];

const overrides: Partial<HandlerUrls> = { handler: "/auth", home: "/start", afterSignIn: "/app", afterSignOut: "/bye" };
const overriddenTargets: [keyof RedirectMethods, string][] = [
  ["redirectToSignIn", `/auth/sign-in?${returnHere}`],
  ["redirectToSignUp", `/auth/sign-up?${returnHere}`],
  ["redirectToSignOut", "/auth/sign-out"],
  ["redirectToHome", "/start"],
  ["redirectToAfterSignIn", "/app"],
  ["redirectToAfterSignUp", "/app"],
  ["redirectToAfterSignOut", "/bye"],
  ["redirectToTeamInvitation", "/auth/team-invitation"],
];

describe("createRedirectMethods", () => {
  it("has every redirectTo… method of the reference", () => {
    expect(Object.keys(appAt(here).methods).sort()).toEqual(defaultTargets.map(([name]) => name).sort());
  });

  it.each(defaultTargets)("%s goes to %s with the default URL set", async (name, target) => {
    const { methods, navigations } = appAt(here);
    await methods[name]();
    expect(navigations).toEqual([target]);
  });

  it.each(overriddenTargets)("%s goes to %s with an overridden URL set", async (name, target) => {
    const { methods, navigations } = appAt(here, { urls: overrides });
    await methods[name]();
    expect(navigations).toEqual([target]);
  });

  it("passes replace on to the navigation", async () => {
    const { ctx } = testAppContext(noRequests, { browser: fakeBrowser(here).browser });
    const calls: [string, unknown][] = [];
    const recording: ClientAppContext = { ...ctx, redirect: async (url, options) => void calls.push([url, options]) };
    const methods = createRedirectMethods(recording);
    await methods.redirectToHome({ replace: true });
    await methods.redirectToSignOut();
    expect(calls).toEqual([
      ["/", { replace: true }],
      ["/handler/sign-out", { replace: false }],
    ]);
  });
});

describe("sign-in and sign-up redirects", () => {
  it("keep the current page's after_auth_return_to", async () => {
    const { methods, navigations } = appAt("https://app.example.com/handler/sign-in?after_auth_return_to=%2Fsettings");
    await methods.redirectToSignUp();
    expect(navigations).toEqual(["/handler/sign-up?after_auth_return_to=%2Fsettings"]);
  });

  it("add no after_auth_return_to with noRedirectBack", async () => {
    const { methods, navigations } = appAt(here);
    await methods.redirectToSignIn({ noRedirectBack: true });
    await methods.redirectToSignUp({ noRedirectBack: true });
    expect(navigations).toEqual(["/handler/sign-in", "/handler/sign-up"]);
  });

  it("add no after_auth_return_to outside a browser", async () => {
    const { methods, navigations } = appAt(null);
    await methods.redirectToSignIn();
    expect(navigations).toEqual(["/handler/sign-in"]);
  });

  it("add no relative after_auth_return_to to a sign-in page on another origin", async () => {
    const { methods, navigations } = appAt(here, { urls: { signIn: "https://auth.example.com/sign-in" } });
    await methods.redirectToSignIn();
    expect(navigations).toEqual(["https://auth.example.com/sign-in"]);
  });
});

describe("after-sign-in and after-sign-up redirects", () => {
  it("go to the page's after_auth_return_to when there is one", async () => {
    const { methods, navigations } = appAt("https://app.example.com/handler/sign-in?after_auth_return_to=%2Fprojects%3Ftab%3D1");
    await methods.redirectToAfterSignIn();
    await methods.redirectToAfterSignUp();
    expect(navigations).toEqual(["/projects?tab=1", "/projects?tab=1"]);
  });

  it("ignore after_auth_return_to with noRedirectBack", async () => {
    const { methods, navigations } = appAt("https://app.example.com/handler/sign-in?after_auth_return_to=%2Fprojects", {
      urls: { afterSignUp: "/welcome" },
    });
    await methods.redirectToAfterSignIn({ noRedirectBack: true });
    await methods.redirectToAfterSignUp({ noRedirectBack: true });
    expect(navigations).toEqual(["/", "/welcome"]);
  });

  it("go to the configured URL when after_auth_return_to is unsafe", async () => {
    const { methods, navigations } = appAt("https://app.example.com/handler/sign-in?after_auth_return_to=%2F%2Fevil.com", {
      urls: { afterSignUp: "/welcome" },
    });
    await methods.redirectToAfterSignIn();
    await methods.redirectToAfterSignUp();
    expect(navigations).toEqual(["/", "/welcome"]);
  });

  it("accept a return-to on an origin the URL set trusts", async () => {
    const page = "https://app.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fdashboard.example.com%2Fp";
    const { methods, navigations } = appAt(page, { urls: { afterSignOut: "https://dashboard.example.com/" } });
    await methods.redirectToAfterSignIn();
    expect(navigations).toEqual(["https://dashboard.example.com/p"]);
  });
});

describe("redirectTo… through the app's navigator", () => {
  afterEach(() => vi.useRealTimers());

  function withNavigator(href: string, urls: Partial<HandlerUrls> = {}) {
    useFakeClock();
    const page = fakeBrowser(href);
    const { ctx, env, waits } = testAppContext(noRequests, { browser: page.browser, urls });
    const redirect = createNavigator({ redirectMethod: "window", browser: page.browser, env, trustedOrigins: trustedOriginsOf(ctx.urls) });
    return { page, waits, methods: createRedirectMethods({ ...ctx, redirect }) };
  }

  it("assigns the sign-in URL with the return-to and waits 2000 ms", async () => {
    const { page, waits, methods } = withNavigator(here);
    const done = methods.redirectToSignIn();
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    expect(page.assigned).toEqual([`/handler/sign-in?${returnHere}`]);
    expect(waits).toEqual([2000]);
  });

  it("goes to an absolute after-sign-in URL the app configured", async () => {
    const { page, methods } = withNavigator(here, { afterSignIn: "https://dashboard.example.com/" });
    const done = methods.redirectToAfterSignIn({ replace: true });
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    expect(page.replaced).toEqual(["https://dashboard.example.com/"]);
  });

  it("refuses a configured URL that is neither relative nor http(s)", async () => {
    const { page, methods } = withNavigator(here, { home: "javascript:alert(1)" });
    const error = await rejectionOf(methods.redirectToHome());
    expect(error).toEqual(new StackConfigurationError("Redirect URL javascript:alert(1) is not trusted; should be relative."));
    expect(page.assigned).toEqual([]);
  });
});
