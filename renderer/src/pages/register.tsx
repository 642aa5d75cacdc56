import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { SHOWN_INLINE } from '../api/query-client';
import { useSignInMethods } from '../api/sign-in-methods';
import { ErrorAlert } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { useSessionStore } from '../session/session-context';
import { AuthLayout } from './auth-layout';
import { safeRedirect } from './sign-in';

export function RegisterPage() {
  const search = useSearch({ from: '/register' });
  const store = useSessionStore();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { name: '', email: search.email ?? '', password: '' } });
  const register = useMutation({
    ...SHOWN_INLINE,
    mutationFn: ({ name, ...rest }: typeof form.values) =>
      store.register({
        ...rest,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(search.invitation ? { invitation: search.invitation } : {}),
      }),
    onSuccess: () => navigate({ href: safeRedirect(search.redirect), replace: true }),
  });
  const methods = useSignInMethods();
  if (methods.data && !methods.data.password) {
    return (
      <AuthLayout title="Create an account">
        <Alert color="blue" title="Accounts come from single sign-on">
          This server makes your account the first time you sign in with {methods.data.singleSignOn?.name}.
        </Alert>
        <Text size="sm">
          <AnchorLink to="/sign-in" search={{ redirect: search.redirect }}>
            Go to sign-in
          </AnchorLink>
        </Text>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create an account">
      {search.invitation ? (
        <Alert color="blue" title="You have been invited to a project">
          Create your account with the invited address: you join the project as soon as it exists.
        </Alert>
      ) : null}
      <form onSubmit={form.onSubmit((values) => register.mutate(values))}>
        <Stack>
          <TextInput label="Name" autoComplete="name" {...form.getInputProps('name')} />
          <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <ErrorAlert title="Could not create the account" error={register.error} />
          <Button type="submit" loading={register.isPending}>
            Create account
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        Already have an account?{' '}
        <AnchorLink to="/sign-in" search={{ redirect: search.redirect }}>
          Sign in
        </AnchorLink>
      </Text>
    </AuthLayout>
  );
}
