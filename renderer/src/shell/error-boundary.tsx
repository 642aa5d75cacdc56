import { Button, Center, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** The last line: a thrown error shows what happened and a way out, never a white screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('Switchboard dashboard: a page failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <CrashNotice error={this.state.error} onRetry={() => this.setState({ error: null })} />;
  }
}

export function CrashNotice({ error, onRetry }: { error: Error; onRetry(): void }) {
  return (
    <Center mih="60vh" p="md">
      <Paper withBorder p="xl" maw={560} role="alert">
        <Stack>
          <Title order={2}>Something went wrong on this page</Title>
          <Text>The dashboard hit an error it did not expect. Your data on the server is unaffected.</Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {error.message}
          </Code>
          <Group>
            <Button onClick={onRetry}>Try again</Button>
            {/* A script that cannot load any more (the server was updated) comes back with a reload. */}
            <Button variant="default" onClick={() => window.location.reload()}>
              Reload the dashboard
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
