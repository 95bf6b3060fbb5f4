// What the end-to-end suite measures: which public async methods of the
// client, server and admin surface it calls. The surface is the method tables
// of tests/unit/app/abort-subjects.ts (abort.test.ts pins each table to the
// methods enumerated from a real instance); here each object the suite meets is
// enumerated again, the same way, and must match its table, and every table
// there must be the table of a kind here. Every app and every object its
// methods hand out is wrapped in a recording Proxy, keyed `<Kind>.<method>`,
// where the Kind comes from the method (or property) that produced the object:
// PRODUCES below. Promise results and arrays are followed, so
// `await (await user.listTeams())[0].update(...)` records `CurrentUser.listTeams`
// and `Team.update`. What a method hands out that no kind covers is searched for
// methods too (plain data, Results, lists): an SDK object with methods hiding
// there is reported, so the surface cannot grow past the tables unseen.
import type { ServiceVersion } from "../../emulator/index.js";
import { SUBJECTS, type Entry } from "../unit/app/abort-subjects.js";

export type Kind =
  | "StackClientApp"
  | "CurrentUser"
  | "CurrentSession"
  | "Team"
  | "TeamInvitation"
  | "ReceivedTeamInvitation"
  | "TeamMemberProfile"
  | "UserApiKey"
  | "TeamApiKey"
  | "ContactChannel"
  | "ActiveSession"
  | "OAuthConnection"
  | "CurrentInternalUser"
  | "AdminOwnedProject"
  | "StackServerApp"
  | "CurrentServerUser"
  | "ServerUser"
  | "ServerTeam"
  | "ServerTeamUser"
  | "ServerContactChannel"
  | "ServerUserApiKey"
  | "ServerTeamMemberProfile"
  | "ServerReceivedTeamInvitation"
  | "ServerOAuthConnection"
  | "CreatedSession"
  | "StackAdminApp"
  | "AdminProject"
  | "InternalApiKey";

/** The abort-subjects table of each kind. */
const TABLE_OF: Record<Kind, string> = {
  StackClientApp: "StackClientApp",
  CurrentUser: "CurrentUser",
  CurrentSession: "CurrentUser.currentSession",
  Team: "Team",
  TeamInvitation: "TeamInvitation",
  ReceivedTeamInvitation: "ReceivedTeamInvitation",
  TeamMemberProfile: "EditableTeamMemberProfile",
  UserApiKey: "UserApiKey",
  TeamApiKey: "TeamApiKey",
  ContactChannel: "ContactChannel",
  ActiveSession: "ActiveSession",
  OAuthConnection: "OAuthConnection",
  CurrentInternalUser: "CurrentInternalUser",
  AdminOwnedProject: "AdminOwnedProject",
  StackServerApp: "StackServerApp",
  CurrentServerUser: "CurrentServerUser",
  ServerUser: "ServerUser",
  ServerTeam: "ServerTeam",
  ServerTeamUser: "ServerTeamUser",
  ServerContactChannel: "ServerContactChannel",
  ServerUserApiKey: "ServerUser's ApiKey",
  ServerTeamMemberProfile: "ServerUser's EditableTeamMemberProfile",
  ServerReceivedTeamInvitation: "ServerUser's ReceivedTeamInvitation",
  ServerOAuthConnection: "ServerUser's OAuthConnection",
  CreatedSession: "CreatedSession",
  StackAdminApp: "StackAdminApp",
  AdminProject: "AdminProject",
  InternalApiKey: "InternalApiKey",
};

/** The kind of what a member hands out: fixed, or decided from the call's arguments and the (resolved) value. */
/** What a member hands out; a function may answer undefined for plain data (searched like an unlisted member). */
type Producer = Kind | ((args: readonly unknown[], value: unknown) => Kind | undefined);

const CLIENT_USER: Readonly<Record<string, Producer>> = {
  listTeams: "Team",
  getTeam: "Team",
  createTeam: "Team",
  selectedTeam: "Team",
  getTeamProfile: "TeamMemberProfile",
  listTeamInvitations: "ReceivedTeamInvitation",
  listApiKeys: "UserApiKey",
  createApiKey: "UserApiKey",
  listContactChannels: "ContactChannel",
  createContactChannel: "ContactChannel",
  getActiveSessions: "ActiveSession",
  getConnectedAccount: "OAuthConnection",
  currentSession: "CurrentSession",
};

const SERVER_USER: Readonly<Record<string, Producer>> = {
  listTeams: "ServerTeam",
  getTeam: "ServerTeam",
  createTeam: "ServerTeam",
  selectedTeam: "ServerTeam",
  getTeamProfile: "ServerTeamMemberProfile",
  listTeamInvitations: "ServerReceivedTeamInvitation",
  listApiKeys: "ServerUserApiKey",
  createApiKey: "ServerUserApiKey",
  listContactChannels: "ServerContactChannel",
  createContactChannel: "ServerContactChannel",
  getActiveSessions: "ActiveSession",
  createSession: "CreatedSession",
  getConnectedAccount: "ServerOAuthConnection",
};

/** A user of the internal project has the owner's methods (createProject, listOwnedProjects) besides a user's. */
const clientGetUser: Producer = (_, value) =>
  typeof value === "object" && value !== null && typeof (value as { listOwnedProjects?: unknown }).listOwnedProjects === "function"
    ? "CurrentInternalUser"
    : "CurrentUser";

/**
 * `serverApp.getUser(id)` and `getUser({ apiKey })` answer any user; `getUser(options?)` the request's own;
 * `getUser({ verify: "local" })` the identity its token proves, plain data.
 */
const serverGetUser: Producer = (args) => {
  const first = args[0];
  if (typeof first === "object" && first !== null && "verify" in first) return undefined;
  return typeof first === "string" || (typeof first === "object" && first !== null && "apiKey" in first)
    ? "ServerUser"
    : "CurrentServerUser";
};

const SERVER_APP: Readonly<Record<string, Producer>> = {
  getUser: serverGetUser,
  getServerUser: "CurrentServerUser",
  createUser: "ServerUser",
  listUsers: "ServerUser",
  createTeam: "ServerTeam",
  getTeam: "ServerTeam",
  listTeams: "ServerTeam",
};

/** Kind → member (method or property) → the kind of what it hands out. */
const PRODUCES: Partial<Record<Kind, Readonly<Record<string, Producer>>>> = {
  StackClientApp: { getUser: clientGetUser },
  StackServerApp: SERVER_APP,
  StackAdminApp: {
    ...SERVER_APP,
    getProject: "AdminProject",
    listInternalApiKeys: "InternalApiKey",
    createInternalApiKey: "InternalApiKey",
  },
  CurrentUser: CLIENT_USER,
  CurrentInternalUser: { ...CLIENT_USER, createProject: "AdminOwnedProject", listOwnedProjects: "AdminOwnedProject" },
  AdminOwnedProject: { app: "StackAdminApp" },
  Team: { listInvitations: "TeamInvitation", listApiKeys: "TeamApiKey", createApiKey: "TeamApiKey" },
  ServerTeam: { listInvitations: "TeamInvitation", listApiKeys: "TeamApiKey", createApiKey: "TeamApiKey", listUsers: "ServerTeamUser" },
  ServerUser: SERVER_USER,
  ServerTeamUser: SERVER_USER,
  CurrentServerUser: { ...SERVER_USER, currentSession: "CurrentSession" },
};

const APPS: readonly Kind[] = ["StackClientApp", "StackServerApp", "StackAdminApp"];

/**
 * Kinds a service version never hands out, so the journey cannot meet them there: 2.8.11 lists no
 * invitations a user received (the call rejects with a ServiceVersionError).
 */
const ABSENT_ON: Partial<Record<ServiceVersion, readonly Kind[]>> = {
  "2.8.11": ["ReceivedTeamInvitation", "ServerReceivedTeamInvitation"],
};

/** Function-valued members, own and inherited (as abort.test.ts enumerates them). */
export function methodsOf(value: object): string[] {
  const names = new Set(Object.entries(value).flatMap(([name, member]) => (typeof member === "function" ? [name] : [])));
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (name !== "constructor" && typeof descriptor.value === "function") names.add(name);
    }
  }
  return [...names].sort();
}

function tableOf(kind: Kind): Readonly<Record<string, Entry<never>>> {
  const subject = SUBJECTS.find((s) => s.name === TABLE_OF[kind]);
  if (!subject) throw new Error(`abort-subjects.ts has no subject ${TABLE_OF[kind]}`);
  return subject.table as Readonly<Record<string, Entry<never>>>;
}

/** The public async methods of a kind: its table's entries that are calls (not "sync", not "protected"). */
function publicAsyncMethods(kind: Kind): string[] {
  return Object.entries(tableOf(kind))
    .filter(([, entry]) => entry !== "sync" && entry !== "protected")
    .map(([name]) => name);
}

/** Values that are the platform's, not the SDK's: their methods are not the surface. */
function isPlatformValue(value: object): boolean {
  return (
    value instanceof Error ||
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Promise ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof URL ||
    value instanceof Headers ||
    value instanceof Request ||
    value instanceof Response
  );
}

export interface CoverageReport {
  readonly total: readonly string[];
  readonly exercised: readonly string[];
  /** Not exercised. */
  readonly missed: readonly string[];
  /** Objects met whose methods differ from their table: `Kind: +extra -missing`. */
  readonly drift: readonly string[];
  /** Kinds never met, so never enumerated live. */
  readonly unseen: readonly Kind[];
  /** abort-subjects tables that no kind here stands for. */
  readonly untracked: readonly string[];
  /** Objects with methods handed out where no kind is expected: `Kind.member → path: methods`. */
  readonly unlisted: readonly string[];
  /** How many distinct objects were enumerated live. */
  readonly enumerated: number;
}

export class Coverage {
  readonly #called = new Set<string>();
  /** Each real object met, once, with the kinds it was met as. */
  readonly #seen = new Map<object, Set<Kind>>();
  readonly #seenKinds = new Set<Kind>();
  readonly #drift = new Set<string>();
  readonly #unlisted = new Set<string>();
  readonly #proxies = new WeakMap<object, Map<Kind, object>>();

  /** `value` wrapped as a `kind`: every method call is recorded, and what it hands out is wrapped in turn. */
  wrap<T>(kind: Kind, value: T): T {
    if (typeof value !== "object" || value === null) return value;
    const real = value as object;
    let byKind = this.#proxies.get(real);
    const known = byKind?.get(kind);
    if (known) return known as T;
    this.#enumerate(kind, real);
    const produces = PRODUCES[kind] ?? {};
    const lift = (where: string, producer: Producer | undefined, args: readonly unknown[], out: unknown): unknown => {
      if (out instanceof Promise) return out.then((resolved: unknown) => this.#lift(where, producer, args, resolved));
      return this.#lift(where, producer, args, out);
    };
    // The target is a stand-in: the SDK's objects are frozen, and a Proxy of a
    // frozen object must answer its own methods unwrapped. Methods run on the
    // real object (the apps keep private fields).
    const proxy = new Proxy(Object.create(Object.getPrototypeOf(real) as object | null) as object, {
      get: (_, property) => {
        const member: unknown = Reflect.get(real, property, real);
        if (typeof property !== "string") return member;
        const where = `${kind}.${property}`;
        if (typeof member === "function") {
          return (...args: unknown[]) => {
            this.#called.add(where);
            return lift(where, produces[property], args, (member as (...a: unknown[]) => unknown).apply(real, args));
          };
        }
        // The apps' own properties (the low-level `api` client, `urls`) are not objects they hand out.
        if (APPS.includes(kind) && produces[property] === undefined) return member;
        return lift(where, produces[property], [], member);
      },
      has: (_, property) => Reflect.has(real, property),
      ownKeys: () => Reflect.ownKeys(real),
      getOwnPropertyDescriptor: (_, property) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(real, property);
        return descriptor && { ...descriptor, configurable: true };
      },
    });
    if (!byKind) this.#proxies.set(real, (byKind = new Map()));
    byKind.set(kind, proxy);
    return proxy as T;
  }

  #lift(where: string, producer: Producer | undefined, args: readonly unknown[], value: unknown): unknown {
    if (producer === undefined) {
      this.#search(where, value, "", new Set());
      return value;
    }
    const one = (item: unknown) => {
      const kind = typeof producer === "function" ? producer(args, item) : producer;
      if (kind !== undefined) return this.wrap(kind, item);
      this.#search(where, item, "", new Set());
      return item;
    };
    if (Array.isArray(value)) {
      const copy: unknown[] = value.map(one);
      // Extra members of a listed page (`nextCursor`) stay on the copy.
      for (const key of Object.keys(value).filter((k) => !/^\d+$/.test(k)))
        (copy as unknown as Record<string, unknown>)[key] = (value as unknown as Record<string, unknown>)[key];
      return copy;
    }
    return one(value);
  }

  /** Checks a real object against its kind's table, and searches its data for objects with methods. */
  #enumerate(kind: Kind, real: object): void {
    this.#seenKinds.add(kind);
    let kinds = this.#seen.get(real);
    if (!kinds) this.#seen.set(real, (kinds = new Set()));
    if (kinds.has(kind)) return;
    kinds.add(kind);
    const actual = methodsOf(real);
    const listed = Object.keys(tableOf(kind)).sort();
    const extra = actual.filter((m) => !listed.includes(m));
    const missing = listed.filter((m) => !actual.includes(m));
    if (extra.length + missing.length > 0)
      this.#drift.add(`${kind}: ${[...extra.map((m) => `+${m}`), ...missing.map((m) => `-${m}`)].join(" ")}`);
    if (APPS.includes(kind)) return;
    const produces = PRODUCES[kind] ?? {};
    for (const [name, member] of Object.entries(real)) {
      if (typeof member !== "function" && produces[name] === undefined) this.#search(`${kind}.${name}`, member, "", new Set());
    }
  }

  /** Data handed out where no kind is expected: any object in it with methods is reported. */
  #search(where: string, value: unknown, path: string, visited: Set<object>): void {
    if (typeof value !== "object" || value === null || visited.has(value)) return;
    visited.add(value);
    if (isPlatformValue(value)) return;
    if (value instanceof Promise) return;
    const methods = Array.isArray(value) ? [] : methodsOf(value);
    if (methods.length > 0) this.#unlisted.add(`${where}${path === "" ? "" : ` → ${path}`}: ${methods.join(", ")}`);
    // An instance of a class is reported as a whole: its insides are its own business.
    const proto: unknown = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
    for (const [key, member] of Object.entries(value))
      this.#search(where, member, Array.isArray(value) ? `${path}[]` : `${path}${path === "" ? "" : "."}${key}`, visited);
  }

  report(serviceVersion?: ServiceVersion): CoverageReport {
    const absent = (serviceVersion && ABSENT_ON[serviceVersion]) ?? [];
    const kinds = (Object.keys(TABLE_OF) as Kind[]).filter((kind) => !absent.includes(kind));
    const total = kinds.flatMap((kind) => publicAsyncMethods(kind).map((method) => `${kind}.${method}`));
    const tracked = new Set(Object.values(TABLE_OF));
    return {
      total,
      exercised: total.filter((key) => this.#called.has(key)),
      missed: total.filter((key) => !this.#called.has(key)),
      drift: [...this.#drift].sort(),
      unseen: kinds.filter((kind) => !this.#seenKinds.has(kind)),
      untracked: SUBJECTS.map((s) => s.name).filter((name) => !tracked.has(name)),
      unlisted: [...this.#unlisted].sort(),
      enumerated: this.#seen.size,
    };
  }

  /** Kinds the suite met at least once. */
  seenKinds(): Kind[] {
    return [...this.#seenKinds];
  }
}
