// Methods whose code loads on their first call. The objects the app hands out
// (the current user, a team) have every method from the start, as the
// reference's do, and work detached (`const { listTeams } = user`); what a
// method does loads with the first call of any of them.

/** The stubs of `names`, each forwarding its arguments to the same method of `make(await load())`, made once. */
export function lazyMethods<T, M extends object>(
  load: () => Promise<T>,
  make: (loaded: T) => M,
  names: { readonly [K in keyof M]: true },
): M {
  let made: M | undefined;
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(names)) {
    methods[name] = async (...args) => {
      made ??= make(await load());
      return (made[name as keyof M] as (...given: unknown[]) => unknown)(...args);
    };
  }
  return methods as M;
}
