import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { SHOWN_INLINE } from '../api/query-client';
import { ErrorAlert } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { useSession, useSessionStore } from '../session/session-context';
import { AuthLayout } from './auth-layout';

/** Where to go after signing in: the page asked for, if it is one of the dashboard's own. */
export function safeRedirect(target: string | undefined): string {
  return target?.startsWith('/') && !target.startsWith('//') && !target.startsWith('/sign-in') ? target : '/';
}

export function SignInPage() {
  const search = useSearch({ from: '/sign-in' });
  const store = useSessionStore();
  const { endedBecause } = useSession();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { email: '', password: '' } });
  const signIn = useMutation({
    ...SHOWN_INLINE,
    mutationFn: (values: typeof form.values) => store.signIn(values),
    onSuccess: () => navigate({ href: safeRedirect(search.redirect), replace: true }),
  });
  return (
    <AuthLayout title="Sign in">
      {endedBecause ? (
        <Alert color="yellow" title="Signed out">
          {endedBecause}
        </Alert>
      ) : null}
      <form onSubmit={form.onSubmit((values) => signIn.mutate(values))}>
        <Stack>
          <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <ErrorAlert title="Could not sign in" error={signIn.error} />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        New here?{' '}
        <AnchorLink to="/register" search={{ redirect: search.redirect }}>
          Create an account
        </AnchorLink>
      </Text>
    </AuthLayout>
  );
}
