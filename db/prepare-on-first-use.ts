/**
 * What is built when first asked for rather than when its service is created. A server creates all its services
 * before it answers its first API request, and preparing every hot-path query then (drizzle writing the SQL, SQLite
 * compiling it) was part of what that first caller waited for.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/** A prepared query, prepared when it first runs (see `onFirstUse`). */
export function prepareOnFirstUse<Prepared extends { execute(...args: never[]): unknown }>(
  prepare: () => Prepared,
): Pick<Prepared, 'execute'> {
  const prepared = onFirstUse(prepare);
  return { execute: ((...args: never[]) => prepared().execute(...args)) as Prepared['execute'] };
}
