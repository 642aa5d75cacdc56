import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { SHOWN_INLINE } from '../api/query-client';
import { singleSignOnStart, useSignInMethods } from '../api/sign-in-methods';
import { ErrorAlert } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { describeSsoRefusal } from '../sdk';
import { useSessionStore } from '../session/session-context';
import { AuthLayout } from './auth-layout';
import { safeRedirect } from './sign-in';

/**
 * Where a single sign-on comes back to: with a grant, redeemed at once for a session, then the page the user
 * wanted; with a refusal, what went wrong and how to start again.
 */
export function SingleSignOnPage() {
  const search = useSearch({ from: '/sign-in/sso' });
  const store = useSessionStore();
  const navigate = useNavigate();
  const methods = useSignInMethods();
  const provider = methods.data?.singleSignOn?.name;
  const redirect = safeRedirect(search.redirect);
  const redeem = useMutation({
    ...SHOWN_INLINE,
    mutationFn: (grant: string) => store.redeemGrant(grant),
    onSuccess: () => navigate({ href: redirect, replace: true }),
  });
  // A grant is good once: redeemed on the first render only (StrictMode renders effects twice in development).
  const redeemed = useRef(false);
  useEffect(() => {
    if (!search.grant || redeemed.current) return;
    redeemed.current = true;
    redeem.mutate(search.grant);
  }, [search.grant, redeem]);

  if (search.grant && !redeem.error) {
    return (
      <AuthLayout title="Signing in…">
        <Group gap="sm">
          <Loader size="sm" aria-label="Signing in" />
          <Text>Finishing the sign-in{provider ? ` with ${provider}` : ''}…</Text>
        </Group>
      </AuthLayout>
    );
  }
  const refusal = describeSsoRefusal(search.error ?? 'unknown', search.detail, provider);
  const startPath = methods.data?.singleSignOn?.startPath;
  return (
    <AuthLayout title={redeem.error ? 'Could not sign in' : refusal.title}>
      {redeem.error ? (
        <ErrorAlert title="The sign-in could not be finished" error={redeem.error} />
      ) : (
        <Alert color="red" title="Sign-in refused" role="alert">
          {refusal.explanation}
        </Alert>
      )}
      <Stack gap="xs">
        {startPath ? (
          <Button component="a" href={singleSignOnStart(startPath, redirect)}>
            Try again with {provider}
          </Button>
        ) : null}
        <Text size="sm">
          <AnchorLink to="/sign-in" search={{ redirect: search.redirect }}>
            Back to sign-in
          </AnchorLink>
        </Text>
      </Stack>
    </AuthLayout>
  );
}
