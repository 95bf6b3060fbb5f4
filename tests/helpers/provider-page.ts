// Reading the emulator's OAuth provider page as a browser would, without one:
// the fields of a form, ready to post.
import { DEMO_KEYS } from "../../emulator/index.js";

/** The fields of a form of the page (by id, or the nth with a data-testid), as a browser would post them. */
export function formOf(page: { readonly text: string; readonly url: string }, pick: { id?: string; testid?: string; index?: number }) {
  const forms = [...page.text.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)];
  const chosen = forms.filter(([, attrs]) =>
    pick.id ? attrs!.includes(`id="${pick.id}"`) : attrs!.includes(`data-testid="${pick.testid}"`),
  )[pick.index ?? 0];
  if (!chosen) throw new Error(`no form ${JSON.stringify(pick)} on the page`);
  const attr = (tag: string, name: string) =>
    new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]?.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  const fields = new URLSearchParams();
  for (const [input] of chosen[2]!.matchAll(/<input\b[^>]*>/g)) {
    if (attr(input, "type") === "checkbox" && !/\bchecked\b/.test(input)) continue;
    fields.set(attr(input, "name") ?? "", attr(input, "value") ?? "");
  }
  return { action: new URL(attr(chosen[1]!, "action") ?? "", page.url).toString(), fields };
}

/**
 * Follows redirects by hand through `emulator` (its provider page and API), from `url`: the page it stops on
 * (`text`, `url`), or where it would leave the emulator's origin (`landed`: the app's page).
 */
export async function browseEmulator(
  emulator: { readonly fetch: (request: Request) => Promise<Response>; readonly apiOrigin: string },
  url: string,
  init: RequestInit = {},
): Promise<{ text: string; url: string; landed?: URL }> {
  for (let hops = 0; hops < 10; hops++) {
    const response = await emulator.fetch(new Request(url, { ...init, redirect: "manual" }));
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) return { text: await response.text(), url };
    const next = new URL(location, url);
    if (next.origin !== new URL(emulator.apiOrigin).origin) return { text: "", url, landed: next };
    if (response.status === 303) init = {};
    url = next.toString();
  }
  throw new Error("too many redirects");
}

/** The PKCE verifier raw OAuth tests send with `code_challenge_method=plain` (so the challenge is the verifier). */
export const PLAIN_VERIFIER = "a-plain-code-verifier-of-forty-three-letters";

/**
 * A raw authorize URL (GitHub) of the demo project on `apiOrigin`, as a client builds it, with a plain PKCE
 * challenge; `extra` adds or replaces query fields.
 */
export function rawAuthorizeUrl(apiOrigin: string, extra: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(`${apiOrigin}/api/v1/auth/oauth/authorize/github`);
  const query = {
    client_id: DEMO_KEYS.projectId,
    client_secret: DEMO_KEYS.publishableClientKey,
    redirect_uri: "http://localhost:3000/handler/oauth-callback",
    scope: "legacy",
    state: "some-state",
    grant_type: "authorization_code",
    code_challenge: PLAIN_VERIFIER,
    code_challenge_method: "plain",
    response_type: "code",
    ...extra,
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}
