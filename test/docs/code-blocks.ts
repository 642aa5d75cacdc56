import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One fenced code block of a Markdown document, as a reader sees it (its indentation removed). */
export interface CodeBlock {
  /** The document, relative to the repository: `README.md`, `docs/chat.md`. */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The fence's language: `sh`, `ts`, `json` … ('' when the fence names none). */
  language: string;
  /** The rest of the info string after the language, e.g. `no-test: needs systemd`. */
  info: string;
  code: string;
}

/** README.md and every docs/*.md: the documents whose code a reader copies. */
export function documentFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$/;

/** The fenced code blocks of a CommonMark document, in order (indented code blocks are not used in these docs). */
export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', language = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^( *)(`{3,}|~{3,})\s*$/.exec(lines[j] ?? '');
      if (close?.[2]?.[0] === fence[0] && (close[2]?.length ?? 0) >= fence.length) break;
      // CommonMark: a content line loses at most the opening fence's indentation.
      body.push((lines[j] ?? '').replace(new RegExp(`^ {0,${indent.length}}`), ''));
    }
    blocks.push({ file, line: i + 1, language, info: info.trim(), code: `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}
