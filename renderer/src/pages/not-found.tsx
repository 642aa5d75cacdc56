import { Center, Stack, Text, Title } from '@mantine/core';
import { AnchorLink } from '../components/links';
import { usePageTitle } from '../components/page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <Center mih="60vh" p="md">
      <Stack align="center">
        <Title order={1}>Page not found</Title>
        <Text>There is no dashboard page at this address.</Text>
        <AnchorLink to="/">Go to your projects</AnchorLink>
      </Stack>
    </Center>
  );
}
