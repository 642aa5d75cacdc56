/** The OTEL_* variables a server was given (`serve` passes its environment's). */
export type OtelEnvironment = Readonly<Record<string, string | undefined>>;

/** The OTEL_* variables of an environment, or undefined when it has none. */
export function otelVariables(env: NodeJS.ProcessEnv): OtelEnvironment | undefined {
  const picked = Object.entries(env).filter(([name]) => name.startsWith('OTEL_'));
  return picked.length > 0 ? Object.fromEntries(picked) : undefined;
}
