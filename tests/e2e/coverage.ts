// What the end-to-end suite measures: which public async methods of the client
// and server surface it calls. The surface is the method tables of
// tests/unit/app/abort-subjects.ts (abort.test.ts pins each table to the
// methods enumerated from a real instance; here each object the suite meets is
// enumerated again, the same way, and must match its table). Every app and
// every object its methods hand out is wrapped in a recording Proxy, keyed
// `<Kind>.<method>`, where the Kind comes from the method (or property) that
// produced the object: PRODUCES below. Promise results and arrays are
// followed, so `await (await user.listTeams())[0].update(...)` records
// `CurrentUser.listTeams` and `Team.update`.
import { SUBJECTS, type Entry } from "../unit/app/abort-subjects.js";

export type Kind =
  | "StackClientApp"
  | "CurrentUser"
  | "CurrentSession"
  | "Team"
  | "TeamInvitation"
  | "TeamMemberProfile"
  | "UserApiKey"
  | "TeamApiKey"
  | "ContactChannel"
  | "ActiveSession"
  | "OAuthConnection"
  | "StackServerApp"
  | "CurrentServerUser"
  | "ServerUser"
  | "ServerTeam"
  | "ServerTeamUser"
  | "ServerContactChannel"
  | "ServerUserApiKey"
  | "ServerTeamMemberProfile"
  | "ServerOAuthConnection"
  | "CreatedSession";

/** The abort-subjects table of each kind. */
const TABLE_OF: Record<Kind, string> = {
  StackClientApp: "StackClientApp",
  CurrentUser: "CurrentUser",
  CurrentSession: "CurrentUser.currentSession",
  Team: "Team",
  TeamInvitation: "TeamInvitation",
  TeamMemberProfile: "EditableTeamMemberProfile",
  UserApiKey: "UserApiKey",
  TeamApiKey: "TeamApiKey",
  ContactChannel: "ContactChannel",
  ActiveSession: "ActiveSession",
  OAuthConnection: "OAuthConnection",
  StackServerApp: "StackServerApp",
  CurrentServerUser: "CurrentServerUser",
  ServerUser: "ServerUser",
  ServerTeam: "ServerTeam",
  ServerTeamUser: "ServerTeamUser",
  ServerContactChannel: "ServerContactChannel",
  ServerUserApiKey: "ServerUser's ApiKey",
  ServerTeamMemberProfile: "ServerUser's EditableTeamMemberProfile",
  ServerOAuthConnection: "ServerUser's OAuthConnection",
  CreatedSession: "CreatedSession",
};

type Producer = Kind | ((args: readonly unknown[]) => Kind);

const CLIENT_USER: Readonly<Record<string, Producer>> = {
  listTeams: "Team",
  getTeam: "Team",
  createTeam: "Team",
  selectedTeam: "Team",
  getTeamProfile: "TeamMemberProfile",
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
  listApiKeys: "ServerUserApiKey",
  createApiKey: "ServerUserApiKey",
  listContactChannels: "ServerContactChannel",
  createContactChannel: "ServerContactChannel",
  getActiveSessions: "ActiveSession",
  createSession: "CreatedSession",
  getConnectedAccount: "ServerOAuthConnection",
};

/** `serverApp.getUser(id)` and `getUser({ apiKey })` answer any user; `getUser(options?)` the request's own. */
const serverGetUser: Producer = (args) => {
  const first = args[0];
  return typeof first === "string" || (typeof first === "object" && first !== null && "apiKey" in first) ? "ServerUser" : "CurrentServerUser";
};

/** Kind → member (method or property) → the kind of what it hands out. */
const PRODUCES: Partial<Record<Kind, Readonly<Record<string, Producer>>>> = {
  StackClientApp: { getUser: "CurrentUser" },
  StackServerApp: {
    getUser: serverGetUser,
    getServerUser: "CurrentServerUser",
    createUser: "ServerUser",
    listUsers: "ServerUser",
    createTeam: "ServerTeam",
    getTeam: "ServerTeam",
    listTeams: "ServerTeam",
  },
  CurrentUser: CLIENT_USER,
  Team: { listInvitations: "TeamInvitation", listApiKeys: "TeamApiKey", createApiKey: "TeamApiKey" },
  ServerTeam: { listInvitations: "TeamInvitation", listApiKeys: "TeamApiKey", createApiKey: "TeamApiKey", listUsers: "ServerTeamUser" },
  ServerUser: SERVER_USER,
  ServerTeamUser: SERVER_USER,
  CurrentServerUser: { ...SERVER_USER, currentSession: "CurrentSession" },
};

/**
 * Methods of the next issue (they need a browser, or emulator operations that
 * stage adds): why each is left out. Everything else is expected to be called.
 */
const NEXT_ISSUE: Readonly<Record<string, string>> = {
  signInWithMfa: "MFA (TOTP sign-in)",
  signInWithPasskey: "passkeys",
  registerPasskey: "passkeys",
  signInWithOAuth: "OAuth",
  callOAuthCallback: "OAuth",
  getConnectedAccount: "OAuth (connected accounts)",
  getAccessToken: "OAuth (connected accounts)",
  promptCliLogin: "CLI login",
  completeCliLogin: "CLI login",
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

export interface CoverageReport {
  readonly total: readonly string[];
  readonly exercised: readonly string[];
  /** Not exercised, and belonging to the next issue, with the reason. */
  readonly nextIssue: readonly string[];
  /** Not exercised, and not of the next issue. */
  readonly missed: readonly string[];
  /** Objects met whose methods differ from their table: `Kind: +extra -missing`. */
  readonly drift: readonly string[];
}

export class Coverage {
  readonly #called = new Set<string>();
  /** The first real object of each kind, to enumerate. */
  readonly #seen = new Map<Kind, object>();
  readonly #proxies = new WeakMap<object, Map<Kind, object>>();

  /** `value` wrapped as a `kind`: every method call is recorded, and what it hands out is wrapped in turn. */
  wrap<T>(kind: Kind, value: T): T {
    if (typeof value !== "object" || value === null) return value;
    const real = value as object;
    let byKind = this.#proxies.get(real);
    const known = byKind?.get(kind);
    if (known) return known as T;
    if (!this.#seen.has(kind)) this.#seen.set(kind, real);
    const produces = PRODUCES[kind] ?? {};
    const lift = (producer: Producer | undefined, args: readonly unknown[], out: unknown): unknown => {
      if (producer === undefined) return out;
      const produced = typeof producer === "function" ? producer(args) : producer;
      if (out instanceof Promise) return out.then((resolved: unknown) => this.#liftValue(produced, resolved));
      return this.#liftValue(produced, out);
    };
    // The target is a stand-in: the SDK's objects are frozen, and a Proxy of a
    // frozen object must answer its own methods unwrapped. Methods run on the
    // real object (the apps keep private fields).
    const proxy = new Proxy(Object.create(Object.getPrototypeOf(real) as object | null) as object, {
      get: (_, property) => {
        const member: unknown = Reflect.get(real, property, real);
        if (typeof property !== "string") return member;
        if (typeof member === "function") {
          return (...args: unknown[]) => {
            this.#called.add(`${kind}.${property}`);
            return lift(produces[property], args, (member as (...a: unknown[]) => unknown).apply(real, args));
          };
        }
        return lift(produces[property], [], member);
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

  #liftValue(kind: Kind, value: unknown): unknown {
    if (Array.isArray(value)) {
      const copy: unknown[] = value.map((item: unknown) => this.wrap(kind, item));
      // Extra members of a listed page (`nextCursor`) stay on the copy.
      for (const key of Object.keys(value).filter((k) => !/^\d+$/.test(k))) (copy as unknown as Record<string, unknown>)[key] = (value as unknown as Record<string, unknown>)[key];
      return copy;
    }
    return this.wrap(kind, value);
  }

  report(): CoverageReport {
    const kinds = Object.keys(TABLE_OF) as Kind[];
    const total = kinds.flatMap((kind) => publicAsyncMethods(kind).map((method) => `${kind}.${method}`));
    const exercised = total.filter((key) => this.#called.has(key));
    const notExercised = total.filter((key) => !this.#called.has(key));
    const reason = (key: string) => NEXT_ISSUE[key.slice(key.indexOf(".") + 1)];
    const drift = kinds.flatMap((kind) => {
      const real = this.#seen.get(kind);
      if (!real) return [];
      const actual = methodsOf(real);
      const listed = Object.keys(tableOf(kind)).sort();
      const extra = actual.filter((m) => !listed.includes(m));
      const missing = listed.filter((m) => !actual.includes(m));
      return extra.length + missing.length === 0 ? [] : [`${kind}: ${[...extra.map((m) => `+${m}`), ...missing.map((m) => `-${m}`)].join(" ")}`];
    });
    return {
      total,
      exercised,
      nextIssue: notExercised.filter((key) => reason(key) !== undefined).map((key) => `${key} (${reason(key)})`),
      missed: notExercised.filter((key) => reason(key) === undefined),
      drift,
    };
  }

  /** Kinds the suite met at least once. */
  seenKinds(): Kind[] {
    return [...this.#seen.keys()];
  }
}
