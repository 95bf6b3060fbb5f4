// The file that keeps the emulator's state across restarts (`--data`), as an
// append-only journal: each change is written once, as it is made, so that a
// change costs the same whatever the state holds; the file is rewritten whole
// (compacted) only when what it holds has grown well past the live state.
//
// The file is lines of JSON. The first names the format; each other line is one
// batch: the changes made in one turn of the event loop (a request's changes,
// a cascading delete), as one array, written with one write before the request
// is answered. A batch is ["put", table, record] (the key is the record's own),
// ["patch", table, key, changed fields], ["delete", table, key] or ["clear"]
// entries. A process killed in the middle of a write leaves at most
// a torn last line, which the next start drops: that batch was never answered.
//
// Node only: the server (server.ts) opens it; the store knows nothing of files.
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { StateJson, TableName } from "./engine/store.js";
import { TABLE_NAMES } from "./engine/store.js";
import { recordKey, type StoreChange, type TableStore } from "./engine/store/tables.js";

const HEADER = { "stackkit-emulator-data": 1 };
const HEADER_LINE = `${JSON.stringify(HEADER)}\n`;
/** Records per line of a compacted file. */
const SNAPSHOT_BATCH = 500;
/**
 * The file is compacted when its entries pass twice the live records (and this many more): the rewrite, which costs
 * as much as the whole state, then comes once for every change made since the last, whatever the state's size.
 */
const SLACK_ENTRIES = 10_000;

type Entry =
  | ["put", TableName, Readonly<Record<string, unknown>>]
  | ["patch", TableName, string, Record<string, unknown>]
  | ["delete", TableName, string]
  | ["clear"];

/** What a data file held at start. */
export interface DataFileContents {
  /** The state it holds; undefined when there was no file. */
  readonly state: StateJson | undefined;
  /** How many entries it held (what compaction weighs against the live records). */
  readonly entries: number;
  /** The byte length of its whole batches: a torn last line after them is cut off at start. */
  readonly goodBytes: number;
  /** The bytes of a torn last line (a write the process was killed in the middle of), dropped. */
  readonly tornBytes: number;
  /** The file is written whole at start: it was absent, or of the older one-JSON-document form. */
  readonly rewrite: boolean;
}

/**
 * Reads a data file: a journal (replayed, a torn last line dropped) or the one JSON document older versions wrote,
 * which is taken whole. Throws when a line before the last is not JSON, or the file is neither form.
 */
export function readDataFile(file: string): DataFileContents {
  if (!existsSync(file)) return { state: undefined, entries: 0, goodBytes: 0, tornBytes: 0, rewrite: true };
  const bytes = readFileSync(file);
  const text = bytes.toString("utf8");
  if (!text.startsWith(HEADER_LINE)) {
    let state: StateJson;
    try {
      state = JSON.parse(text) as StateJson;
    } catch (error) {
      throw new Error(`The emulator's data file ${file} is neither its journal nor JSON: ${(error as Error).message}`);
    }
    return { state, entries: 0, goodBytes: 0, tornBytes: 0, rewrite: true };
  }
  const tables = new Map<TableName, Map<string, unknown>>(TABLE_NAMES.map((name) => [name, new Map()]));
  let entries = 0;
  let offset = HEADER_LINE.length;
  while (offset < text.length) {
    const end = text.indexOf("\n", offset);
    let batch: Entry[] | undefined;
    try {
      batch = end === -1 ? undefined : (JSON.parse(text.slice(offset, end)) as Entry[]);
    } catch {
      batch = undefined;
    }
    if (batch === undefined) {
      // Only the last line can be torn: a write in the middle of the file was followed by others that completed.
      if (end !== -1 && end + 1 < text.length) {
        const line = text.slice(0, offset).split("\n").length;
        throw new Error(`The emulator's data file ${file} is damaged at line ${line}, before its last line.`);
      }
      break;
    }
    for (const entry of batch) applyEntry(tables, entry);
    entries += batch.length;
    offset = end + 1;
  }
  const state: StateJson = {
    version: 1,
    tables: Object.fromEntries([...tables].map(([name, rows]) => [name, [...rows.values()]])),
  };
  const goodBytes = Buffer.byteLength(text.slice(0, offset));
  return { state, entries, goodBytes, tornBytes: bytes.length - goodBytes, rewrite: false };
}

function applyEntry(tables: Map<TableName, Map<string, unknown>>, entry: Entry): void {
  if (entry[0] === "clear") for (const rows of tables.values()) rows.clear();
  else if (entry[0] === "put") tables.get(entry[1])?.set(recordKey(entry[1], entry[2]), entry[2]);
  else if (entry[0] === "patch") Object.assign(tables.get(entry[1])?.get(entry[2]) ?? {}, entry[3]);
  else tables.get(entry[1])?.delete(entry[2]);
}

/** The records of `state` with their tables, as a snapshot writes them. */
export function* stateEntries(state: StateJson): Generator<[TableName, unknown]> {
  for (const name of TABLE_NAMES) for (const record of state.tables[name] ?? []) yield [name, record];
}

/**
 * Writes `records` to `file` as a journal holding nothing but them, through a temporary file and a rename, so that a
 * crash leaves either the old file or the new one. Answers how many entries it wrote.
 */
export function writeSnapshot(file: string, records: Iterable<readonly [TableName, unknown]>): number {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  let entries = 0;
  try {
    writeAll(fd, HEADER_LINE);
    let batch: string[] = [];
    const flush = () => {
      if (batch.length === 0) return;
      writeAll(fd, `[${batch.join(",")}]\n`);
      entries += batch.length;
      batch = [];
    };
    for (const [name, record] of records) {
      batch.push(JSON.stringify(["put", name, record]));
      if (batch.length === SNAPSHOT_BATCH) flush();
    }
    flush();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  return entries;
}

/**
 * A data file the store's changes are appended to: `follow` starts it; the changes of one turn of the event loop are
 * written together by `flush`, which runs by itself at the end of that turn, and which the server runs before it
 * answers.
 */
export class DataFile {
  readonly #file: string;
  #fd: number | undefined;
  #pending: string[] = [];
  #entries: number;
  #store: TableStore | undefined;

  constructor(file: string, contents: DataFileContents) {
    this.#file = file;
    this.#entries = contents.entries;
    if (!contents.rewrite) {
      this.#fd = openSync(file, "r+");
      // Whatever follows the last whole batch is a torn write: cut off before anything is appended.
      if (contents.tornBytes > 0) ftruncateSync(this.#fd, contents.goodBytes);
      closeSync(this.#fd);
      this.#fd = openSync(file, "a");
    }
  }

  /** Appends every change of `store` from now on; writes the file whole first when it is absent, old or mostly stale. */
  follow(store: TableStore): void {
    this.#store = store;
    store.onChange((change) => this.#add(change));
    if (this.#fd === undefined || this.#compactionDue()) this.compact();
  }

  #add(change: StoreChange): void {
    const entry: Entry =
      change.kind === "clear"
        ? ["clear"]
        : change.kind === "delete"
          ? ["delete", change.table, change.key]
          : // JSON has no undefined: a patch that sets a field to it is kept as the whole record, which leaves the field out.
            change.kind === "patch" && !Object.values(change.changes).includes(undefined)
            ? ["patch", change.table, change.key, change.changes as Record<string, unknown>]
            : ["put", change.table, change.record as Readonly<Record<string, unknown>>];
    if (this.#pending.length === 0) queueMicrotask(() => this.flush());
    this.#pending.push(JSON.stringify(entry));
  }

  /** Writes the changes made since the last flush, as one batch; compacts the file when it is due. */
  flush(): void {
    if (this.#pending.length === 0 || this.#fd === undefined) return;
    const batch = this.#pending;
    this.#pending = [];
    writeAll(this.#fd, `[${batch.join(",")}]\n`);
    this.#entries += batch.length;
    if (this.#compactionDue()) this.compact();
  }

  /** Rewrites the file as the live state alone. */
  compact(): void {
    if (this.#store === undefined) return;
    this.#pending = [];
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#entries = writeSnapshot(this.#file, this.#store.entries());
    this.#fd = openSync(this.#file, "a");
  }

  /** Writes what is pending and stops following the store. */
  close(): void {
    this.flush();
    this.#store?.onChange(undefined);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #compactionDue(): boolean {
    if (this.#entries <= SLACK_ENTRIES) return false;
    let live = 0;
    for (const size of Object.values(this.#store?.sizes() ?? {})) live += size;
    return this.#entries > 2 * live + SLACK_ENTRIES;
  }
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  let written = 0;
  while (written < buffer.length) written += writeSync(fd, buffer, written);
}
