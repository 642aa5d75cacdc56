import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Asks before a change that cannot be undone (revoking a key, removing a member); the confirm button is red. */
export function confirmDanger({
  title,
  message,
  confirm,
  onConfirm,
}: {
  title: string;
  message: string;
  confirm: string;
  onConfirm(): void;
}): void {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
