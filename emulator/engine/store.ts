// The emulator's state: every record the service keeps, in tables that export
// to JSON and import back (seed files, `--data` persistence, test fixtures).
// store/records.ts has the records' types, store/tables.ts the private tables
// and their indexes, store/store.ts the queries and operations on them.
export * from "./store/records.js";
export { Store } from "./store/store.js";
