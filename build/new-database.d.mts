export function writeNewDatabase(migrationsFolder: string, file: string, options?: { nativeBinding?: string }): void;
