import { Button, Code, CopyButton, Stack, Tabs } from '@mantine/core';
import type { Snippet } from './snippet';

/** Ready-to-paste code, one tab per snippet, each with its copy button. */
export function SnippetTabs({ snippets }: { snippets: Snippet[] }) {
  return (
    <Tabs defaultValue={snippets[0]?.id}>
      <Tabs.List>
        {snippets.map((s) => (
          <Tabs.Tab key={s.id} value={s.id}>
            {s.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {snippets.map((s) => (
        <Tabs.Panel key={s.id} value={s.id} pt="sm">
          <Stack gap="xs">
            <Code block aria-label={`${s.label} snippet`} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {s.code}
            </Code>
            <CopyButton value={s.code}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" w="fit-content" onClick={copy}>
                  {copied ? 'Copied' : `Copy ${s.label}`}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
