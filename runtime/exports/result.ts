// One group of the package entry's named exports: Result, apart from the client
// app's group, so that an app's first load carries it only when the app uses it.
export { Result } from "../app/result.js";
