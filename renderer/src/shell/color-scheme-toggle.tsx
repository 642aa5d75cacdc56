import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/** Light or dark, remembered on this machine; follows the system until chosen. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light');
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      onClick={() => setColorScheme(next)}
    >
      <span aria-hidden="true">{current === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}
