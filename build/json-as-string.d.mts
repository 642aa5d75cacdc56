import type { Plugin } from 'esbuild';

export function jsonAsStringPlugin(): Plugin;
