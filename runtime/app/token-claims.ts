// An access token carries the user's name, e-mail, selected team, anonymity,
// restriction and second factor as claims (service-versions §2). After the user
// changes one of them, the token held still says what was: as the official
// SDK does after `user.update` and a passkey registration, the session's token
// is marked expired, so that the next call (`getAccessToken()`, the next
// request) gets one the service issues for the user as it is now.
import type { ClientAppContext } from "./context.js";

/**
 * The user of `ctx`'s session changed what its access token says: the next use of the session
 * refreshes the token. Only a session with a refresh token is touched (one without could not get
 * another, as the official SDK's `suggestAccessTokenExpired`); nothing is sent now. A session that
 * has ended meanwhile is left alone: the change itself went through.
 */
export function accessTokenClaimsChanged(ctx: ClientAppContext): void {
  let tokens;
  let session;
  try {
    session = ctx.sessions().current();
    tokens = session.peek();
  } catch {
    return;
  }
  if (tokens.refreshToken !== null && tokens.accessToken !== null) session.markAccessTokenExpired(tokens.accessToken);
}
