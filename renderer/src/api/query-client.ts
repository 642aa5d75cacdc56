import { type Mutation, MutationCache, type Query, QueryCache, QueryClient } from '@tanstack/react-query';
import { isSessionRefused, notifyError } from './errors';

/** What a query or mutation tells the error rule below about itself. */
interface ErrorMeta extends Record<string, unknown> {
  /** A form (or modal) shows this call's failure next to its fields, in an ErrorAlert: no toast as well. */
  errorShownInline?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

/**
 * The options of a call sent by a form: its failure is shown once, inline where the user typed (`<ErrorAlert>`),
 * not as a toast too. Spread into `useMutation({...})` (or `useQuery`) of such a call.
 */
export const SHOWN_INLINE = { meta: { errorShownInline: true } } as const;

export interface QueryClientHooks {
  /**
   * The server answered 401: if a session was in use, sign out here, go to sign-in and answer true. (Without one,
   * e.g. a wrong password on the sign-in page, answer false: the error is shown as any other.)
   */
  onSessionRefused(): boolean;
}

/**
 * One QueryClient for the app. Every failed call is shown once, with the server's code, message and request id:
 * inline by the form that sent it (marked {@link SHOWN_INLINE}, which renders an ErrorAlert), else as a toast
 * (an action without a form: a button in a row, a menu item, a background read). A refused session signs the user
 * out instead. A refused session is not retried, nor is any 4xx answer (it would only fail again).
 */
export function createQueryClient(hooks: QueryClientHooks): QueryClient {
  // A query runs only with a session: its 401 means the session ended (later ones, once signed out, say nothing
  // new). A mutation's 401 can also be a refused sign-in, which is shown as any other error.
  const onQueryError = (error: unknown, query: Query<unknown, unknown, unknown>) => {
    if (isSessionRefused(error)) hooks.onSessionRefused();
    else if (!query.meta?.errorShownInline) notifyError(error);
  };
  const onMutationError = (
    error: unknown,
    _variables: unknown,
    _context: unknown,
    mutation: Mutation<unknown, unknown, unknown>,
  ) => {
    if (isSessionRefused(error) && hooks.onSessionRefused()) return;
    if (!mutation.meta?.errorShownInline) notifyError(error);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: onQueryError }),
    // Every change the dashboard makes is recorded in the audit log: a log on screen shows it on its next read.
    mutationCache: new MutationCache({
      onError: onMutationError,
      onSuccess: (): Promise<void> => queryClient.invalidateQueries({ queryKey: ['audit'] }),
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (failures, error) => failures < 2 && !isClientError(error),
      },
    },
  });
  return queryClient;
}

function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
