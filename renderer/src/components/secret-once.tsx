import { Alert, Button, Code, CopyButton, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A secret's full text, shown this once, with copy-to-clipboard: `label` names it (e.g. "The new API key"),
 * `lost` says what to do without it, `children` what to do with it.
 */
export function SecretOnce({
  secret,
  label,
  copyLabel,
  lost,
  children,
}: {
  secret: string;
  label: string;
  copyLabel: string;
  lost: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Copy it now: it is not shown again">
        {lost}
      </Alert>
      <Code block aria-label={label} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
      {children}
    </Stack>
  );
}
