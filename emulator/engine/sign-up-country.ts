// The country a user signed up from (2.8.86's `country_code` of server views: lib/end-users.tsx and
// getDerivedSignUpCountryCode in lib/users.tsx). The service trusts no proxy unless its deployment names one, and the
// emulator is such a deployment: the request's geo headers are read as the end user's claim, and only when the
// request claims to come from a browser and names the end user's IP address. In its development and test
// environment, which the emulator plays as it plays the bot-challenge stub, an `@example.com` address tagged with a
// country (`ada+CA@example.com`) wins over the headers, so that a test can sign a user up from anywhere.

/** A user agent that claims a browser: every modern browser's names one of these. */
const BROWSER_AGENT = /Mozilla|Chrome|Safari/;

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Whether `text` is an IPv4 or IPv6 address (what the URL parser takes in brackets is a valid IPv6 address). */
function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true;
  return text.includes(":") && !/[[\]/]/.test(text) && URL.canParse(`http://[${text}]/`);
}

/** A two-letter country code as the service normalises it (trimmed, upper case); null when it is none. */
function countryCodeOf(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

/**
 * The end user's country as the request tells it, or null: the request must claim a browser and carry a valid IP
 * address (`x-real-ip`, else the first of `x-forwarded-for`, else `x-vercel-forwarded-for`, else `cf-connecting-ip`);
 * the country is then `x-vercel-ip-country`, else `cf-ipcountry`.
 */
export function requestCountryCode(headers: Headers): string | null {
  if (!BROWSER_AGENT.test(headers.get("user-agent") ?? "")) return null;
  const ip =
    headers.get("x-real-ip") ??
    headers.get("x-forwarded-for")?.split(",")[0] ??
    headers.get("x-vercel-forwarded-for") ??
    headers.get("cf-connecting-ip");
  if (ip === null || !isIpAddress(ip)) return null;
  const raw = headers.get("x-vercel-ip-country") ?? headers.get("cf-ipcountry");
  return raw ? countryCodeOf(raw) : null;
}

/** The country a sign-up records: an `@example.com` address's country tag, else the request's country, else null. */
export function signUpCountryCode(requestCountry: string | null, email: string | null): string | null {
  const tag = email?.match(/^[^+]+\+([^@]+)@example\.com$/i)?.[1];
  const tagged = tag === undefined ? null : countryCodeOf(tag);
  return tagged ?? (requestCountry === null ? null : countryCodeOf(requestCountry));
}
