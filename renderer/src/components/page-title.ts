import { useDocumentTitle } from '@mantine/hooks';

/** The tab's (and the desktop window's) title: the page first, so that tabs and history tell pages apart. */
export function usePageTitle(...parts: (string | undefined)[]): void {
  useDocumentTitle([...parts.filter(Boolean), 'Switchboard'].join(' · '));
}
