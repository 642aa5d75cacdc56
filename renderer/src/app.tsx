import {
  Alert,
  Anchor,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  localStorageColorSchemeManager,
  MantineProvider,
  Modal,
  Notification,
} from '@mantine/core';
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

/**
 * Mantine's defaults, darkened where they fall short of WCAG AA contrast (4.5:1): white on a filled button uses
 * shade 9, and dimmed text is gray 7 rather than 6. Close buttons get a name for screen readers.
 */
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 9,
  defaultRadius: 'md',
  components: {
    // An alert's colour says what kind it is; its title is read in the text colour (yellow on yellow is unreadable).
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
    // Links inside text are underlined: colour alone does not tell them apart.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      styles: { description: { color: 'var(--mantine-color-text)' } },
    }),
  },
});
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Text of light and subtle variants (badges, subtle buttons, the active page in the navigation).
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    // Green 9, yellow 9 and gray on their light backgrounds stay under 4.5:1 (statuses, the live badge): darker text
    // of the same hue (green reaches 5.7:1).
    '--mantine-color-green-light-color': '#1e6b30',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
    '--mantine-color-yellow-light-color': 'var(--mantine-color-dark-6)',
    '--mantine-color-blue-light-hover': 'var(--mantine-color-blue-1)',
    '--mantine-color-red-light-hover': 'var(--mantine-color-red-1)',
    '--mantine-color-green-light-hover': 'var(--mantine-color-green-1)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
const colorSchemeManager = localStorageColorSchemeManager({ key: 'switchboard.color-scheme' });

function createApp() {
  // API calls go to the origin that served the page: the server itself, or Vite's dev server, which proxies /v1.
  const session = new SessionStore('');
  const queryClient = createQueryClient({
    // Expiring the session takes the page to sign-in (the subscription below).
    onSessionRefused: () => {
      if (!session.signedIn) return false;
      session.expire();
      return true;
    },
  });
  const router = createAppRouter({ session, queryClient });
  // Signed out by the server (expired, revoked) or in another tab: leave the signed-in pages, keeping the way back.
  session.subscribe(() => {
    const { pathname, href } = router.state.location;
    if (session.signedIn || pathname === '/sign-in' || pathname === '/register') return;
    // Cleared once the signed-in pages are gone: cleared before, their queries would refetch without a session.
    void router.navigate({ to: '/sign-in', search: { redirect: href } }).then(() => queryClient.clear());
  });
  return { session, queryClient, router };
}

export function App() {
  const [{ session, queryClient, router }] = useState(createApp);
  return (
    <StrictMode>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="auto"
        colorSchemeManager={colorSchemeManager}
      >
        <ErrorBoundary>
          <SessionProvider store={session}>
            <QueryClientProvider client={queryClient}>
              <ModalsProvider>
                {/* Bottom right: at the top they covered the account menu and the project switcher. */}
                <Notifications position="bottom-right" />
                <RouterProvider router={router} />
              </ModalsProvider>
            </QueryClientProvider>
          </SessionProvider>
        </ErrorBoundary>
      </MantineProvider>
    </StrictMode>
  );
}
