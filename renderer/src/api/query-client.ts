import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isSessionRefused, notifyError } from './errors';

export interface QueryClientHooks {
  /**
   * The server answered 401: if a session was in use, sign out here, go to sign-in and answer true. (Without one,
   * e.g. a wrong password on the sign-in page, answer false: the error is shown as any other.)
   */
  onSessionRefused(): boolean;
}

/**
 * One QueryClient for the app. Every failed query and mutation is shown as a notification with the server's code,
 * message and request id, except a refused session, which signs the user out instead. A refused session is not
 * retried, nor is any 4xx answer (it would only fail again).
 */
export function createQueryClient(hooks: QueryClientHooks): QueryClient {
  // A query runs only with a session: its 401 means the session ended (later ones, once signed out, say nothing
  // new). A mutation's 401 can also be a refused sign-in, which is shown as any other error.
  const onQueryError = (error: unknown) => {
    if (isSessionRefused(error)) hooks.onSessionRefused();
    else notifyError(error);
  };
  const onMutationError = (error: unknown) => {
    if (isSessionRefused(error) && hooks.onSessionRefused()) return;
    notifyError(error);
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
