// One group of the package entry's named exports (see ./core.ts): testing for and
// making a SessionEndedError without the error catalogue, whose class it loads on first use.
export { isSessionEndedError, sessionEndedError } from "../session-ended.js";
