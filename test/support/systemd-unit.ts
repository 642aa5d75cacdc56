/**
 * The documented systemd units (docs/deployment/*.service) as a test runs them, without systemd: the command of
 * `ExecStart=`, with the environment of its `Environment=` lines and of the files `EnvironmentFile=` names.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DocumentedUnit {
  /** `ExecStart=`, split into words (the documented lines quote nothing). */
  command: string[];
  /** `Environment=NAME=value` lines, by name. */
  environment: Record<string, string>;
  /** `EnvironmentFile=` paths, as documented. */
  environmentFiles: string[];
}

/** A file of docs/deployment/, by name. */
export function documentedFile(name: string): string {
  return fileURLToPath(new URL(`../../docs/deployment/${name}`, import.meta.url));
}

export function readUnit(name: string): DocumentedUnit {
  const unit: DocumentedUnit = { command: [], environment: {}, environmentFiles: [] };
  for (const line of readFileSync(documentedFile(name), 'utf8').split('\n')) {
    const [, key, value = ''] = /^(\w+)=(.*)$/.exec(line) ?? [];
    if (key === 'ExecStart') unit.command = value.split(/\s+/);
    if (key === 'EnvironmentFile') unit.environmentFiles.push(value);
    if (key === 'Environment') {
      const [, name = '', setting = ''] = /^(\w+)=(.*)$/.exec(value) ?? [];
      unit.environment[name] = setting;
    }
  }
  return unit;
}

/** `NAME=value` lines of an environment file (`#` comments and blank lines skipped), by name. */
export function readEnvironmentFile(name: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(documentedFile(name), 'utf8').split('\n')) {
    const [, key, value = ''] = /^(\w+)=(.*)$/.exec(line) ?? [];
    if (key) settings[key] = value;
  }
  return settings;
}

/** Replaces the value after `flag` in `command` (the flag must be there, with a value). */
export function withFlag(command: string[], flag: string, value: string): string[] {
  const at = command.indexOf(flag);
  if (at < 0 || at + 1 >= command.length)
    throw new Error(`the documented command has no ${flag}: ${command.join(' ')}`);
  return command.map((word, i) => (i === at + 1 ? value : word));
}
