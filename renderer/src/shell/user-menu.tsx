import { Button, Menu, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useSession, useSessionStore } from '../session/session-context';

/** The signed-in account: who it is, the API reference, and signing out (which revokes the session on the server). */
export function UserMenu() {
  const { user } = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => store.signOut(),
    // The session store's subscriber (app.tsx) leaves the signed-in pages and clears the cache; an explicit sign-out
    // lands on a plain sign-in page rather than one that leads back.
    onSettled: () => navigate({ to: '/sign-in', search: {} }),
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* A long address would push the header past a phone's screen: cut with an ellipsis (whole in the title). */}
        <Button variant="default" title={`Signed in as ${user?.email ?? ''}`} maw={{ base: 150, sm: 320 }}>
          <Text span inherit truncate="end">
            {user?.name || user?.email}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item component="a" href="/docs" target="_blank" rel="noreferrer">
          API reference
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => signOut.mutate()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
