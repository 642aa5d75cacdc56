import { Alert, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { SHOWN_INLINE } from '../api/query-client';
import { singleSignOnStart, useSignInMethods } from '../api/sign-in-methods';
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
  const methods = useSignInMethods();
  const form = useForm({ initialValues: { email: '', password: '' } });
  const signIn = useMutation({
    ...SHOWN_INLINE,
    mutationFn: (values: typeof form.values) => store.signIn(values),
    onSuccess: () => navigate({ href: safeRedirect(search.redirect), replace: true }),
  });
  const sso = methods.data?.singleSignOn;
  // Until the server says, no form: a server without passwords would show one for a moment. If it cannot say,
  // the form, whose own call then shows what is wrong.
  const passwords = methods.data ? methods.data.password : methods.isError;
  return (
    <AuthLayout title="Sign in">
      {endedBecause ? (
        <Alert color="yellow" title="Signed out">
          {endedBecause}
        </Alert>
      ) : null}
      {sso ? (
        <Button component="a" href={singleSignOnStart(sso.startPath, safeRedirect(search.redirect))} variant="filled">
          Sign in with {sso.name}
        </Button>
      ) : null}
      {sso && passwords ? <Divider label="or with your password" labelPosition="center" /> : null}
      {passwords ? (
        <>
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
              <Button type="submit" variant={sso ? 'default' : 'filled'} loading={signIn.isPending}>
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
        </>
      ) : null}
      {methods.data && !passwords ? (
        <Text size="sm" c="dimmed">
          This server signs in with {sso?.name} only: your account is your address there.
        </Text>
      ) : null}
    </AuthLayout>
  );
}
