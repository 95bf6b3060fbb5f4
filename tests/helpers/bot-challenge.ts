// A service answering a flow's requests in turn, and an app's bot-challenge provider that records
// what it is asked: shared by the sign-up, magic-link and OAuth bot-challenge tests.
import type { BotChallengeProvider, BotChallengeRequest } from "../../runtime/app/bot-challenge-options.js";
import type { Handler } from "./fake-service.js";

/** Answers in turn, one per request; a request beyond them fails the test. */
export function answers(...list: (() => Response)[]): Handler {
  let next = 0;
  return () => {
    const answer = list[next++];
    if (!answer) throw new Error(`request ${next} was not expected`);
    return answer();
  };
}

/** A provider that answers `tokens` in turn and records what it was asked. */
export function provider(...tokens: (string | null)[]) {
  const asked: BotChallengeRequest[] = [];
  const botChallenge: BotChallengeProvider = async (request) => {
    asked.push(request);
    return tokens.shift() ?? null;
  };
  return { botChallenge, asked };
}
