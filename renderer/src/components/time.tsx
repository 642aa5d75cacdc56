/** A timestamp as the user reads it (their locale and zone), with the exact ISO value on hover. */
export function Time({ value, empty = 'Never' }: { value: string | null | undefined; empty?: string }) {
  if (!value) return <>{empty}</>;
  return (
    <time dateTime={value} title={value}>
      {new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}
