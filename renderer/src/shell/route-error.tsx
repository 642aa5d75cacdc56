import type { ErrorComponentProps } from '@tanstack/react-router';
import { CrashNotice } from './error-boundary';

/** A page that threw while rendering or loading: the router's error boundary shows it. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  return <CrashNotice error={error instanceof Error ? error : new Error(String(error))} onRetry={reset} />;
}
