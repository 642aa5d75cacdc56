/**
 * A timestamp as the user reads it (their locale and zone), with the exact ISO value on hover. `seconds` for logs,
 * where events a few seconds apart must read apart.
 */
export function Time({
  value,
  empty = 'Never',
  seconds = false,
}: {
  value: string | null | undefined;
  empty?: string;
  seconds?: boolean;
}) {
  if (!value) return <>{empty}</>;
  return (
    <time dateTime={value} title={value}>
      {new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' })}
    </time>
  );
}
