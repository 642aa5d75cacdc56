import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/use-test-server.js';

const run = promisify(execFile);
const t = useTestServer();

let doc: any;
let folder: string;
beforeAll(async () => {
  doc = (await t.api.get('/openapi.json')).body;
  folder = mkdtempSync(join(tmpdir(), 'switchboard-openapi-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the OpenAPI document, as API tooling reads it', () => {
  it('passes Redocly’s recommended rules with no error or warning', async () => {
    const file = join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // Redocly's CLI reports usage and looks for updates over the network unless told not to.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const result = await run('npx', ['redocly', 'lint', file, '--extends', 'recommended', '--format', 'json'], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
    const problems = report.problems.map(
      (p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`,
    );
    expect(problems).toEqual([]);
  }, 60_000);

  it('has a described tag for every tag an operation uses, and a description on every operation', () => {
    const declared = new Map(doc.tags.map((tag: { name: string; description: string }) => [tag.name, tag.description]));
    for (const section of [doc.paths, doc.webhooks]) {
      for (const [path, item] of Object.entries<any>(section)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          expect(operation.description, `${method} ${path}`).toMatch(/\S/);
          for (const tag of operation.tags) expect(declared.get(tag), `tag ${tag}`).toMatch(/\S/);
        }
      }
    }
  });

  it('leaves a request field with a server default optional, saying the default in words', () => {
    const member = doc.components.schemas.AddConversationMemberRequest;
    expect(member.required).toEqual(['userId']);
    expect(member.properties.role.default).toBeUndefined();
    expect(member.properties.role.description).toContain('Default: `"MEMBER"`');
    // What the server answers keeps its fields required: a member always has a role.
    expect(doc.components.schemas.ConversationMember.required).toContain('role');
  });
});
