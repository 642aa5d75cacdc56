export function whyStale(root: string, step: string, outputs: string[]): string | undefined;
export function writeStamp(root: string, step: string, inputs: Iterable<string>, startedAt: number): void;
