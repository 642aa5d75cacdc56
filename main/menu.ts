import { Menu, type MenuItemConstructorOptions, shell } from 'electron';

/** The standard menus (their roles give the platform's shortcuts), plus help pointing at the server. */
export function buildAppMenu(serverUrl: string): Menu {
  const open = (url: string) => () => void shell.openExternal(url);
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'API Reference', click: open(`${serverUrl}/docs`) },
        { label: 'Open Dashboard in Browser', click: open(serverUrl) },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
