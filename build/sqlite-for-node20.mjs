// `postinstall`: on Node.js 20, builds the SQLite driver it runs, better-sqlite3 12 (the optional dependency
// better-sqlite3-node20; see db/sqlite-driver.ts). Everywhere else it does nothing: Node.js 22 and later run
// better-sqlite3 13, whose binaries come in its package. allowScripts denies better-sqlite3's install script, so that
// npm 11.16 and later do not build 12 where it is never loaded (a minute of compiling where no prebuilt binary can be
// fetched); this runs that same script, on the one Node.js that needs it. npm 10 knows no allowScripts and runs it
// itself: then the driver already loads, and this does nothing.
import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

function driverFolder() {
  try {
    return dirname(require.resolve('better-sqlite3-node20/package.json'));
  } catch {
    return undefined; // optional dependencies omitted: db/sqlite-driver.ts says so when the server starts
  }
}

function driverLoads() {
  try {
    const Database = require('better-sqlite3-node20');
    new Database(':memory:').close();
    return true;
  } catch {
    return false;
  }
}

/** Runs better-sqlite3 12's own install script in its folder, unless it is absent or already loads. */
function buildDriver() {
  const folder = driverFolder();
  if (!folder || driverLoads()) return;
  const { scripts } = require('better-sqlite3-node20/package.json');
  console.log(
    `Node.js ${process.version} runs better-sqlite3 12: building it (\`${scripts.install}\`; about a minute where no prebuilt binary can be fetched) …`,
  );
  try {
    // npm puts node_modules/.bin (prebuild-install, node-gyp) and its own node-gyp on the PATH of lifecycle scripts.
    execSync(scripts.install, { cwd: folder, stdio: 'pipe' });
  } catch (err) {
    process.stderr.write(`${err.stdout}${err.stderr}`);
    console.error(
      `Could not build better-sqlite3 12, the SQLite driver of Node.js ${process.version} (above). It needs Python 3, make and a C++ compiler; or use Node.js 22 or later, which needs no build.`,
    );
    process.exit(1);
  }
}

if (Number(process.versions.napi) < 10) buildDriver();
