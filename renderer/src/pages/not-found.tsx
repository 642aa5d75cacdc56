import { Center, Stack, Text, Title } from '@mantine/core';
import { AnchorLink } from '../components/links';
import { usePageTitle } from '../components/page-title';

export function NotFoundPage() {
  return <NotFound title="Page not found" explanation="There is no dashboard page at this address." />;
}

/** An address the dashboard has no page for, or the pages of something that does not exist: the way back home. */
export function NotFound({ title, explanation }: { title: string; explanation: string }) {
  usePageTitle(title);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center">
        <Title order={1}>{title}</Title>
        <Text ta="center">{explanation}</Text>
        <AnchorLink to="/">Go to your projects</AnchorLink>
      </Stack>
    </Center>
  );
}
