// How the app navigates (issue #4 "Redirects and URLs"): each redirect method,
// the exact 2000 ms wait after navigating, and the after_auth_return_to round trip.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createNavigator, REDIRECT_WAIT_MS, returnToTarget, withReturnTo } from "../../../runtime/app/redirect.js";
import type { RedirectMethod } from "../../../runtime/app/context.js";
import { StackConfigurationError } from "../../../runtime/errors.js";
import { fakeBrowser } from "../../helpers/app-context.js";
import { testEnvironment, useFakeClock } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

function navigatorFor(redirectMethod: RedirectMethod, browser: ReturnType<typeof fakeBrowser> | null, trustedOrigins: string[] = []) {
  const { env, waits } = testEnvironment(async () => new Response(null, { status: 500 }));
  const navigate = createNavigator({ redirectMethod, browser: browser?.browser ?? null, env, trustedOrigins });
  return { navigate, waits };
}

/** Whether `promise` has settled yet, read after the microtasks that are due have run. */
function track(promise: Promise<void>) {
  const state = { settled: false };
  void promise.then(() => (state.settled = true));
  return state;
}

describe('redirectMethod "window"', () => {
  it("assigns the URL, then resolves after exactly 2000 ms", async () => {
    const page = fakeBrowser("https://app.example.com/projects");
    const { navigate, waits } = navigatorFor("window", page);
    const done = track(navigate("/handler/sign-in"));
    expect(page.assigned).toEqual(["/handler/sign-in"]);
    expect(page.replaced).toEqual([]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(done.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done.settled).toBe(true);
    expect(waits).toEqual([2000]);
  });

  it("replaces the page instead when asked to", async () => {
    const page = fakeBrowser("https://app.example.com/");
    const { navigate, waits } = navigatorFor("window", page);
    const done = navigate("/dashboard", { replace: true });
    await vi.advanceTimersByTimeAsync(REDIRECT_WAIT_MS);
    await done;
    expect(page.replaced).toEqual(["/dashboard"]);
    expect(page.assigned).toEqual([]);
    expect(waits).toEqual([2000]);
  });

  it("follows an absolute URL on the page's origin", async () => {
    const page = fakeBrowser("https://app.example.com/");
    const { navigate } = navigatorFor("window", page);
    const done = navigate("https://app.example.com/dashboard");
    await vi.advanceTimersByTimeAsync(REDIRECT_WAIT_MS);
    await done;
    expect(page.assigned).toEqual(["https://app.example.com/dashboard"]);
  });

  it("follows an absolute URL on a trusted origin", async () => {
    const page = fakeBrowser("https://app.example.com/");
    const { navigate } = navigatorFor("window", page, ["https://dashboard.example.com"]);
    const done = navigate("https://dashboard.example.com/projects");
    await vi.advanceTimersByTimeAsync(REDIRECT_WAIT_MS);
    await done;
    expect(page.assigned).toEqual(["https://dashboard.example.com/projects"]);
  });

  it("refuses an untrusted target before navigating, with the reference's message", async () => {
    const page = fakeBrowser("https://app.example.com/");
    const { navigate, waits } = navigatorFor("window", page);
    const error = await rejectionOf(navigate("https://app.example.com.evil.com/"));
    expect(error).toEqual(
      new StackConfigurationError("Redirect URL https://app.example.com.evil.com/ is not trusted; should be relative."),
    );
    expect(page.assigned).toEqual([]);
    expect(waits).toEqual([]);
  });

  it("fails with a configuration error when there is no browser", async () => {
    const { navigate, waits } = navigatorFor("window", null);
    const error = await rejectionOf(navigate("/dashboard"));
    expect(error).toBeInstanceOf(StackConfigurationError);
    expect((error as Error).message).toBe('redirectMethod "window" runs in a browser only: there is no window here.');
    expect(waits).toEqual([]);
  });
});

describe("a custom redirectMethod { navigate }", () => {
  it("calls navigate with the URL, then resolves after exactly 2000 ms", async () => {
    const calls: string[] = [];
    const { navigate, waits } = navigatorFor({ navigate: (url) => void calls.push(url) }, fakeBrowser());
    const done = track(navigate("/dashboard", { replace: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["/dashboard"]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(done.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done.settled).toBe(true);
    expect(waits).toEqual([2000]);
  });

  it("waits for an asynchronous navigate before starting the 2000 ms", async () => {
    let finish = () => {};
    const { navigate, waits } = navigatorFor({ navigate: () => new Promise<void>((resolve) => (finish = resolve)) }, fakeBrowser());
    const done = track(navigate("/dashboard"));
    await vi.advanceTimersByTimeAsync(5000);
    expect(waits).toEqual([]);
    expect(done.settled).toBe(false);
    finish();
    await vi.advanceTimersByTimeAsync(REDIRECT_WAIT_MS);
    expect(done.settled).toBe(true);
    expect(waits).toEqual([2000]);
  });

  it("works without a browser for relative targets", async () => {
    const calls: string[] = [];
    const { navigate } = navigatorFor({ navigate: (url) => void calls.push(url) }, null);
    const done = navigate("/dashboard");
    await vi.advanceTimersByTimeAsync(REDIRECT_WAIT_MS);
    await done;
    expect(calls).toEqual(["/dashboard"]);
  });

  it("passes on a failure of navigate without waiting", async () => {
    const failure = new Error("router is gone");
    const { navigate, waits } = navigatorFor({ navigate: () => Promise.reject(failure) }, fakeBrowser());
    expect(await rejectionOf(navigate("/dashboard"))).toBe(failure);
    expect(waits).toEqual([]);
  });

  it("never calls navigate for an untrusted target", async () => {
    const calls: string[] = [];
    const { navigate } = navigatorFor({ navigate: (url) => void calls.push(url) }, fakeBrowser());
    expect(await rejectionOf(navigate("//evil.com"))).toBeInstanceOf(StackConfigurationError);
    expect(calls).toEqual([]);
  });

  it("refuses a redirect method that is neither a name nor an object with navigate", async () => {
    const { navigate } = navigatorFor({} as RedirectMethod, fakeBrowser());
    const error = await rejectionOf(navigate("/dashboard"));
    expect(error).toEqual(
      new StackConfigurationError('redirectMethod must be "window", "none" or an object with a navigate(url) function.'),
    );
  });
});

describe('redirectMethod "none"', () => {
  it("navigates nowhere and resolves at once, without waiting", async () => {
    const page = fakeBrowser();
    const { navigate, waits } = navigatorFor("none", page);
    await navigate("/dashboard");
    expect(page.assigned).toEqual([]);
    expect(page.replaced).toEqual([]);
    expect(waits).toEqual([]);
  });

  it("still refuses an untrusted target", async () => {
    const { navigate } = navigatorFor("none", null);
    expect(await rejectionOf(navigate("javascript:alert(1)"))).toEqual(
      new StackConfigurationError("Redirect URL javascript:alert(1) is not trusted; should be relative."),
    );
  });
});

describe("withReturnTo", () => {
  it("sets the current page's path, query and hash", () => {
    const { browser } = fakeBrowser("https://app.example.com/projects/1?tab=members#top");
    expect(withReturnTo("/handler/sign-in", browser)).toBe("/handler/sign-in?after_auth_return_to=%2Fprojects%2F1%3Ftab%3Dmembers%23top");
  });

  it("keeps the current page's own after_auth_return_to", () => {
    const { browser } = fakeBrowser("https://app.example.com/handler/sign-up?after_auth_return_to=%2Fsettings");
    expect(withReturnTo("/handler/sign-in", browser)).toBe("/handler/sign-in?after_auth_return_to=%2Fsettings");
  });

  it("does not pass on an unsafe after_auth_return_to; the current page without it goes instead", () => {
    const { browser } = fakeBrowser("https://app.example.com/page?x=1&after_auth_return_to=%2F%2Fevil.com");
    expect(withReturnTo("/handler/sign-in", browser)).toBe("/handler/sign-in?after_auth_return_to=%2Fpage%3Fx%3D1");
  });

  it("adds no return-to when the current page's own URL is not a safe target", () => {
    const { browser } = fakeBrowser("https://app.example.com/files?path=C%3A%5Cdocs");
    expect(withReturnTo("/handler/sign-in", browser)).toBe("/handler/sign-in");
  });

  it("keeps an absolute target absolute", () => {
    const { browser } = fakeBrowser("https://app.example.com/projects");
    expect(withReturnTo("https://app.example.com/login", browser)).toBe("https://app.example.com/login?after_auth_return_to=%2Fprojects");
  });

  it("adds no relative return-to to a sign-in page on another origin", () => {
    const { browser } = fakeBrowser("https://app.example.com/projects");
    expect(withReturnTo("https://auth.example.com/sign-in", browser, ["https://auth.example.com"])).toBe(
      "https://auth.example.com/sign-in",
    );
  });

  it("carries an absolute return-to to a sign-in page on another origin", () => {
    const { browser } = fakeBrowser("https://app.example.com/?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fx");
    expect(withReturnTo("https://auth.example.com/sign-in", browser, ["https://auth.example.com"])).toBe(
      "https://auth.example.com/sign-in?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fx",
    );
  });

  it("leaves the target as it is without a browser", () => {
    expect(withReturnTo("/handler/sign-in", null)).toBe("/handler/sign-in");
  });

  it("leaves an unsafe target as it is, so the redirect's error names it", () => {
    const { browser } = fakeBrowser("https://app.example.com/projects");
    expect(withReturnTo("//evil.com/sign-in", browser)).toBe("//evil.com/sign-in");
  });
});

describe("returnToTarget", () => {
  it("is the current page's after_auth_return_to", () => {
    const { browser } = fakeBrowser("https://app.example.com/handler/sign-in?after_auth_return_to=%2Fprojects%3Ftab%3D1");
    expect(returnToTarget(browser)).toBe("/projects?tab=1");
  });

  it("accepts an absolute return-to on the page's origin", () => {
    const { browser } = fakeBrowser("https://app.example.com/?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fx");
    expect(returnToTarget(browser)).toBe("https://app.example.com/x");
  });

  it("accepts an absolute return-to on a trusted origin", () => {
    const { browser } = fakeBrowser("https://app.example.com/?after_auth_return_to=https%3A%2F%2Fdashboard.example.com%2F");
    expect(returnToTarget(browser, ["https://dashboard.example.com"])).toBe("https://dashboard.example.com/");
  });

  it("is null when the page has none", () => {
    expect(returnToTarget(fakeBrowser("https://app.example.com/handler/sign-in").browser)).toBeNull();
  });

  it("is null without a browser", () => {
    expect(returnToTarget(null)).toBeNull();
  });

  it.each([
    ["another origin", "https%3A%2F%2Fevil.com%2F"],
    ["a protocol-relative URL", "%2F%2Fevil.com"],
    ["a double-encoded protocol-relative URL", "%252F%252Fevil.com"],
    ["javascript:", "javascript%3Aalert(1)"],
    ["an empty value", ""],
  ])("is null when it is unsafe: %s", (_, value) => {
    const { browser } = fakeBrowser(`https://app.example.com/handler/sign-in?after_auth_return_to=${value}`);
    expect(returnToTarget(browser)).toBeNull();
  });
});
