import { Alert, Loader } from '@mantine/core';
import { ErrorDetails } from '../api/errors';

/** A failed call, where it failed: the server's message, code and request id under `title`. Nothing without one. */
export function ErrorAlert({ title, error }: { title: string; error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title}>
      <ErrorDetails error={error} />
    </Alert>
  );
}

/** What a list shows before its data: a spinner while it loads, or why it could not. */
export function QueryStatus({
  query,
  loading,
  failed,
}: {
  query: { isPending: boolean; error: unknown };
  loading: string;
  failed: string;
}) {
  if (query.error) return <ErrorAlert title={failed} error={query.error} />;
  return query.isPending ? <Loader aria-label={loading} /> : null;
}
