// jsdom's browser globals for a test file that runs in Node and also uses the
// emulator helpers. Vitest's jsdom environment transforms modules as for a
// browser bundle, which turns `new URL(file, import.meta.url)` into a URL of
// the page, so tests/helpers/emulator.ts cannot read the API document there.
// This sets up the same globals Vitest's jsdom environment does; import it
// before anything that loads React DOM.
import { afterAll } from "vitest";
import { builtinEnvironments } from "vitest/runtime";

const { teardown } = await builtinEnvironments.jsdom.setup(globalThis, { jsdom: {} });
afterAll(() => teardown(globalThis));
