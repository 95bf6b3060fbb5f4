// The country a user signed up from (2.8.86's `country_code` of server views: lib/end-users.tsx and
// getDerivedSignUpCountryCode in lib/users.tsx). The service trusts no proxy unless its deployment names one, and the
// emulator is such a deployment: the request's geo headers are read as the end user's claim, and only when the
// request claims to come from a browser and names the end user's IP address. In its development and test
// environment, which the emulator plays as it plays the bot-challenge stub, an `@example.com` address tagged with a
// country (`ada+CA@example.com`) wins over the headers, so that a test can sign a user up from anywhere.
import { endUserOf } from "./activity.js";
import type { ServiceProfile } from "./profile.js";

/** A two-letter country code as the service normalises it (trimmed, upper case); null when it is none. */
function countryCodeOf(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

/**
 * The end user's country as the request tells it (where the activity log has it from: activity.ts endUserOf, a
 * browser's request that names a valid IP address), or null when it names none that is a country code.
 */
export function requestCountryCode(profile: ServiceProfile, headers: Headers): string | null {
  const country = endUserOf(profile, headers)?.country_code;
  return country === undefined ? null : countryCodeOf(country);
}

/** The country a sign-up records: an `@example.com` address's country tag, else the request's country, else null. */
export function signUpCountryCode(requestCountry: string | null, email: string | null): string | null {
  const tag = email?.match(/^[^+]+\+([^@]+)@example\.com$/i)?.[1];
  const tagged = tag === undefined ? null : countryCodeOf(tag);
  return tagged ?? (requestCountry === null ? null : countryCodeOf(requestCountry));
}
