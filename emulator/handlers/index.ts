// Every operation's handler, by area. An operation of the document without a
// handler answers 501 and fails tests/emulator/handlers.test.ts.
import type { Handlers } from "../engine/context.js";
import { projectHandlers } from "./projects.js";

export const handlers: Handlers = {
  ...projectHandlers,
};
