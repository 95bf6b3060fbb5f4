// The parts of a browser the client app uses, injected so that flows can be
// tested without a global window, and so that server code gets a clear error
// instead of a ReferenceError.
import { StackConfigurationError } from "../errors.js";

/** The part of `window.location` the app reads and navigates with. */
export interface BrowserLocation {
  readonly href: string;
  readonly origin: string;
  readonly hostname: string;
  readonly protocol: string;
  /**
   * Navigates to `url`, adding an entry to the history (`location.assign`); the
   * app uses it for redirects unless `replace` is asked for.
   *
   * @example
   * ```ts
   * // A location for tests that records navigations instead of leaving the page.
   * const visited: string[] = [];
   * const page = new URL("https://app.example.com/");
   * const location: BrowserLocation = {
   *   href: page.href, origin: page.origin, hostname: page.hostname, protocol: page.protocol,
   *   assign: (url) => void visited.push(url),
   *   replace: (url) => void visited.push(`replace ${url}`),
   * };
   * ```
   */
  assign(url: string): void;
  /**
   * Navigates to `url` in place of the current history entry (`location.replace`),
   * so the back button skips the page left.
   *
   * @example
   * ```ts
   * const app = new StackClientApp({ projectId, tokenStore: "memory", browser: { location, history, document } });
   * await app.redirectToSignIn({ replace: true });
   * // location.replace was called with the sign-in page's URL.
   * console.log(visited[0]?.startsWith("replace "));
   * ```
   */
  replace(url: string): void;
}

/** The parts of a browser the client app uses (`window.location`, `history`, `document.cookie`): the `browser` option gives them for tests or an embedded view; server code has none. */
export interface Browser {
  readonly location: BrowserLocation;
  readonly history: { replaceState(data: unknown, unused: string, url: string): void };
  /** Reading gives `name=value; …`; assigning sets one cookie. */
  readonly document: { cookie: string };
}

/** The global window, when there is one. */
export function platformBrowser(): Browser | null {
  const w = globalThis as { window?: unknown; location?: unknown; history?: unknown; document?: unknown };
  if (typeof w.window !== "object" || w.window === null || !w.location || !w.history || !w.document) return null;
  return { location: w.location as BrowserLocation, history: w.history as Browser["history"], document: w.document as Browser["document"] };
}

/** The browser, or an error saying that `what` needs one. */
export function requireBrowser(browser: Browser | null, what: string): Browser {
  if (browser === null) {
    throw new StackConfigurationError(`${what} runs in a browser only: there is no window here.`);
  }
  return browser;
}
