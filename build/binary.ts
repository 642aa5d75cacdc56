/**
 * `npm run build:binary [-- <output>]`: the `switchboard` command as one executable for this platform, at
 * out/switchboard-<platform>-<arch> by default. A copy of this very Node.js with a single executable application
 * blob injected (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html): the CLI and server
 * bundled into one CommonJS file, plus, as assets, the files the server reads at run time (see CARRIED), which
 * server/app-files/sea-files.ts unpacks into a cache folder on first use. Works offline; run it on each platform
 * to get that platform's executable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import Database, { SQLITE_DRIVER } from '../db/sqlite-driver.js';
import { CARRIED, MANIFEST_ASSET, type SeaManifest } from '../server/app-files/sea-manifest.js';
import { readVersion } from '../server/version.js';
import { jsonAsStringPlugin } from './json-as-string.mjs';
import { writeNewDatabase } from './new-database.mjs';
import { unreachableDataPlugin } from './unreachable-data.mjs';

const require = createRequire(import.meta.url);
/** The repository, whatever the working directory. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The fuse every Node.js binary carries, which postject flips to say that a blob is injected. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const isMac = process.platform === 'darwin';
const isWindows = process.platform === 'win32';
const output = resolve(
  process.argv[2] ?? join(ROOT, 'out', `switchboard-${process.platform}-${process.arch}${isWindows ? '.exe' : ''}`),
);

const step = (what: string) => process.stderr.write(`${what}\n`);
const started = performance.now();

/** Every file under `folder`, as paths relative to it with '/' separators. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * What the executable carries besides its code: the path each file unpacks to, and where it is read from here. The
 * database new data folders start from is made in `work`.
 */
function carriedFiles(work: string): Map<string, string> {
  const files = new Map<string, string>();
  // Only what the migrator reads: the SQL and the journal (the snapshots serve drizzle-kit alone).
  for (const [carried, folder] of [
    [CARRIED.migrations, 'migrations'],
    [CARRIED.postgresMigrations, 'postgres-migrations'],
  ]) {
    const migrations = join(ROOT, 'db', folder);
    for (const name of readdirSync(migrations).filter((name) => name.endsWith('.sql')))
      files.set(`${carried}/${name}`, join(migrations, name));
    files.set(`${carried}/meta/_journal.json`, join(migrations, 'meta', '_journal.json'));
  }
  files.set(CARRIED.scalarScript, require.resolve('@scalar/api-reference/browser/standalone.js'));
  const sqliteAddon = sqliteAddonPath();
  checkSqliteAddon(sqliteAddon);
  files.set(CARRIED.sqliteAddon, sqliteAddon);
  const newDatabase = join(work, 'new-database.db');
  writeNewDatabase(join(ROOT, 'db', 'migrations'), newDatabase, { nativeBinding: sqliteAddon });
  files.set(CARRIED.newDatabase, newDatabase);
  // The dashboard's Vite build, when there is one.
  const dashboard = join(ROOT, 'dist', 'renderer');
  if (existsSync(dashboard))
    for (const file of filesUnder(dashboard)) files.set(`${CARRIED.dashboard}/${file}`, join(dashboard, file));
  return files;
}

/**
 * The addon of the better-sqlite3 this Node.js runs (db/sqlite-driver.ts), where that package would load it: one
 * compiled in its folder, else (13) the binary it ships for this platform, found by its own lookup.
 */
function sqliteAddonPath(): string {
  const sqlitePackage = dirname(require.resolve(`${SQLITE_DRIVER}/package.json`));
  const compiled = join(sqlitePackage, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(compiled) || SQLITE_DRIVER !== 'better-sqlite3') return compiled;
  const { getPrebuildPath } = require(join(sqlitePackage, 'lib', 'binding.js')) as {
    getPrebuildPath(): string | null;
  };
  const prebuilt = getPrebuildPath();
  if (!prebuilt) throw new Error(`better-sqlite3 has no binary for ${process.platform}-${process.arch}.`);
  return prebuilt;
}

/** The addon must load in this Node.js, the one the executable is a copy of. */
function checkSqliteAddon(addon: string): void {
  try {
    new Database(':memory:', { nativeBinding: addon }).close();
  } catch (err) {
    throw new Error(`${addon} does not load in this Node.js (${(err as Error).message}).`);
  }
}

/**
 * Bundles, instead of db/sqlite-driver.ts, the one better-sqlite3 this Node.js runs: the executable carries that
 * one's addon, and has no node_modules to choose from.
 */
function sqliteDriverPlugin(): Plugin {
  return {
    name: 'sqlite-driver',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\/sqlite-driver\.js$/ }, (args) => {
        if (!args.importer.startsWith(join(ROOT, 'db', sep))) return undefined;
        return { path: 'sqlite-driver', namespace: 'sqlite-driver', pluginData: { resolveDir: args.resolveDir } };
      });
      bundle.onLoad({ filter: /.*/, namespace: 'sqlite-driver' }, (args) => ({
        contents: `export { default } from '${SQLITE_DRIVER}';\nexport const SQLITE_DRIVER = '${SQLITE_DRIVER}';\n`,
        resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * Bundles werift (its CommonJS build) into the executable, which has no node_modules, where server/media/werift.ts
 * requires it from there at run time: the media process (server/app-files/sea-main.ts) takes it from here.
 */
function weriftPlugin(): Plugin {
  return {
    name: 'werift',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\/werift\.js$/ }, (args) => {
        if (!args.importer.startsWith(join(ROOT, 'server', 'media', sep))) return undefined;
        return { path: 'werift', namespace: 'werift', pluginData: { resolveDir: args.resolveDir } };
      });
      bundle.onLoad({ filter: /.*/, namespace: 'werift' }, (args) => ({
        contents: "export const werift = require('werift');\n",
        resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
        loader: 'js',
      }));
    },
  };
}

/** Bundles sea-files.ts where the sources import package-files.ts (see server/app-files/app-files.ts). */
function carriedFilesPlugin(onUsed: () => void): Plugin {
  return {
    name: 'sea-files',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\/package-files\.js$/ }, (args) => {
        if (!args.importer.endsWith(join('app-files', 'app-files.ts'))) return undefined;
        onUsed();
        return { path: join(args.resolveDir, 'sea-files.ts') };
      });
    },
  };
}

async function bundleCli(outfile: string): Promise<void> {
  let swapped = false;
  await build({
    // The command, or the media process when a server forks the executable as one (server/app-files/sea-main.ts).
    entryPoints: [join(ROOT, 'server', 'app-files', 'sea-main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    // A single executable's main script is CommonJS in Node 20.
    format: 'cjs',
    target: `node${process.versions.node}`,
    plugins: [
      carriedFilesPlugin(() => {
        swapped = true;
      }),
      sqliteDriverPlugin(),
      weriftPlugin(),
      unreachableDataPlugin(),
      jsonAsStringPlugin(),
    ],
    // The executable's own require() loads only Node's built-in modules; better-sqlite3 requires its unpacked
    // addon by path, which needs a file-based one (as Node's documentation suggests).
    banner: { js: "require = require('node:module').createRequire(__filename);" },
    // import.meta.url is empty in CommonJS: code that locates files by it must ask server/app-files instead.
    logOverride: { 'empty-import-meta': 'error' },
    logLevel: 'warning',
    legalComments: 'none',
  });
  if (!swapped) throw new Error('server/app-files/app-files.ts no longer imports ./package-files.js');
}

/**
 * Linux: drops Node's symbol table and debug information, 13 of its 99 MB, which serve only debuggers and native
 * profilers (JavaScript stack traces do not use them). Skipped, saying so, where binutils' `strip` is missing.
 */
function stripSymbols(executable: string): void {
  const result = spawnSync('strip', ['--strip-all', executable], { encoding: 'utf8' });
  if (result.error) step(`(Not stripped: ${result.error.message}.)`);
  else if (result.status !== 0) throw new Error(`strip failed (${result.status}): ${result.stderr}`);
}

/**
 * postject's command, run apart to keep its output quiet unless it fails: it reports progress, and its ELF parser
 * warns about each unnamed note section of Node's binary (`Can't find string offset for section name '.note.100'`),
 * which is harmless.
 */
function injectBlob(executable: string, blob: string): void {
  const args = [
    require.resolve('postject/dist/cli.js'),
    executable,
    'NODE_SEA_BLOB',
    blob,
    '--sentinel-fuse',
    SEA_FUSE,
  ];
  if (isMac) args.push('--macho-segment-name', 'NODE_SEA');
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const said = `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.includes("Can't find string offset for section name"));
  if (result.status !== 0) throw new Error(`postject failed (${result.status}):\n${said.join('\n')}`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'switchboard-binary-'));
  try {
    const files = carriedFiles(work);
    const hash = createHash('sha256');
    for (const [file, source] of [...files].sort(([a], [b]) => a.localeCompare(b)))
      hash
        .update(file)
        .update('\0')
        .update(await readFile(source));
    const manifest: SeaManifest = {
      version: readVersion(),
      hash: hash.digest('hex').slice(0, 16),
      files: [...files.keys()],
    };
    const manifestFile = join(work, MANIFEST_ASSET);
    writeFileSync(manifestFile, JSON.stringify(manifest));

    step('Bundling the CLI and server…');
    const main = join(work, 'switchboard.cjs');
    await bundleCli(main);

    step(`Preparing the blob (${files.size} files carried)…`);
    const blob = join(work, 'sea.blob');
    const assets = Object.fromEntries([[MANIFEST_ASSET, manifestFile], ...files]);
    const config = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
    execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'pipe' });

    step('Injecting it into a copy of Node.js…');
    mkdirSync(dirname(output), { recursive: true });
    rmSync(output, { force: true });
    copyFileSync(process.execPath, output);
    chmodSync(output, 0o755);
    if (isMac) execFileSync('codesign', ['--remove-signature', output]);
    if (process.platform === 'linux') stripSymbols(output);
    injectBlob(output, blob);
    // An ad-hoc signature: Apple silicon runs nothing unsigned. (Windows runs it unsigned; sign it to ship it.)
    if (isMac) execFileSync('codesign', ['--sign', '-', output]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const megabytes = ((await stat(output)).size / 1024 / 1024).toFixed(1);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shown = relative(process.cwd(), output).startsWith('..') ? output : relative(process.cwd(), output);
  step(`Built ${shown} (${megabytes} MB) in ${seconds} s`);
}

await main();
