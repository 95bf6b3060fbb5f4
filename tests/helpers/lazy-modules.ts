// Loads up front what the apps load on first use (flows, the calls of the objects
// they hand out, the server and admin halves, the answer checker, the catalogue).
// A test on fake timers settles a call by running its timers; the first load of a
// module is real I/O those timers do not wait for, so a file whose calls load
// code and then wait on fake time imports this first. The runtime entry is
// imported first so that every loader it can reach is registered.
import "../../runtime/index.js";
import { preloadAll } from "../../runtime/platform/lazy.js";

await preloadAll();
