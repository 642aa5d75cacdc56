import type { Plugin } from 'esbuild';

export function unreachableDataPlugin(): Plugin;
