import { createTheme, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useState } from 'react';
import { createQueryClient } from './api/query-client';
import { createAppRouter } from './router';
import { SessionProvider } from './session/session-context';
import { SessionStore } from './session/session-store';
import { ErrorBoundary } from './shell/error-boundary';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
const colorSchemeManager = localStorageColorSchemeManager({ key: 'switchboard.color-scheme' });

function createApp() {
  // API calls go to the origin that served the page: the server itself, or Vite's dev server, which proxies /v1.
  const session = new SessionStore('');
  const queryClient = createQueryClient({
    onSessionRefused: () => {
      if (!session.signedIn) return false;
      session.expire();
      queryClient.clear();
      const { href } = router.state.location;
      if (!href.startsWith('/sign-in')) void router.navigate({ to: '/sign-in', search: { redirect: href } });
      return true;
    },
  });
  const router = createAppRouter({ session, queryClient });
  return { session, queryClient, router };
}

export function App() {
  const [{ session, queryClient, router }] = useState(createApp);
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
        <ErrorBoundary>
          <SessionProvider store={session}>
            <QueryClientProvider client={queryClient}>
              <ModalsProvider>
                <Notifications position="top-right" />
                <RouterProvider router={router} />
              </ModalsProvider>
            </QueryClientProvider>
          </SessionProvider>
        </ErrorBoundary>
      </MantineProvider>
    </StrictMode>
  );
}
