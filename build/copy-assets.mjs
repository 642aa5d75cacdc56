// Copies what the compiled server reads at run time next to it in dist/.
import { cpSync } from 'node:fs';

cpSync('db/migrations', 'dist/db/migrations', { recursive: true });
