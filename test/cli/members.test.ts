import { beforeAll, describe, expect, it } from 'vitest';
import { type CliUser, expectApiError, expectUsageError, ok, runCli, useCli } from '../support/cli.js';
import { createProject, PASSWORD, registerUser, type TestUser } from '../support/factories.js';

const cli = useCli();

let owner: CliUser & { projectId: string };
beforeAll(async () => {
  owner = await cli.withProject('Team');
});

const roleOf = async (user: TestUser) =>
  (await owner.json('members', 'list')).data.find((m: { userId: string }) => m.userId === user.id)?.role;

describe.concurrent('switchboard members', () => {
  it('lists members with their roles as a table, and the API’s JSON with --json', async () => {
    // A project of its own, so that the other tests' changes do not change the list under it.
    const { id: project } = await createProject(cli.api, owner.account, 'Listed');
    const lines = ok(await owner.run('members', 'list', '--project', project)).split('\n');
    expect(lines[0]).toMatch(/^USER ID\s+EMAIL\s+NAME\s+ROLE\s+JOINED$/);
    expect(lines[1]).toMatch(new RegExp(`^${owner.account.id}\\s+${owner.account.email}\\s+OWNER\\s+\\S+ \\S+Z$`));
    const api = await cli.api.get(`/v1/projects/${project}/members`, { token: owner.account.token });
    expect(await owner.json('members', 'list', '--project', project)).toEqual(api.body);
  });

  it('adds someone with an account, with a role in any letter case', async () => {
    const mate = await registerUser(cli.api);
    expect(ok(await owner.run('members', 'add', mate.email, '--role', 'developer'))).toBe(
      `Added ${mate.email} (${mate.id}) as DEVELOPER.\n`,
    );
    expect(await roleOf(mate)).toBe('DEVELOPER');
    expectApiError(await owner.run('members', 'add', mate.email, '--role', 'VIEWER'), 'SERVICE_MEMBER_EXISTS');
  });

  it('refuses an address without an account (invite them instead) and an unknown role', async () => {
    const result = await owner.run('members', 'add', 'ghost@example.test', '--role', 'VIEWER');
    expectApiError(result, 'SERVICE_USER_NOT_FOUND');
    expectUsageError(
      await owner.run('members', 'add', 'ghost@example.test', '--role', 'boss'),
      /Accepted values: OWNER, ADMIN, DEVELOPER, VIEWER, BILLING/,
    );
    expectUsageError(await owner.run('members', 'add', 'ghost@example.test'), /required option '--role <role>'/);
  });

  it('invites an address without an account, who registers with the invitation and is a member at once', async () => {
    const email = `invited-${Date.now()}@example.test`;
    const invited = ok(await owner.run('members', 'invite', email, '--role', 'developer', '--ttl-hours', '24'));
    expect(invited).toContain(`Invited ${email} as DEVELOPER`);
    const token = invited.trim().split('\n').at(-1) as string;
    expect(invited).toContain(`switchboard register --email ${email} --invitation ${token}`);

    const home = cli.newHome();
    const env = { SWITCHBOARD_URL: cli.server.url };
    const registered = await runCli(['register', '--email', email, '--password', PASSWORD, '--invitation', token], {
      home,
      env,
    });
    expect(ok(registered)).toBe(`Registered and signed in to ${cli.server.url} as ${email}.\n`);
    const projects = JSON.parse(ok(await runCli(['--json', 'projects', 'list'], { home, env })));
    expect(projects.data.map((project: { id: string }) => project.id)).toContain(owner.projectId);
    const members = (await owner.json('members', 'list')).data;
    expect(members).toContainEqual(expect.objectContaining({ email, role: 'DEVELOPER' }));
    // An invitation works once.
    const again = await runCli(['register', '--email', email, '--password', PASSWORD, '--invitation', token], {
      home: cli.newHome(),
      env,
    });
    expect(again.code).toBe(1);
    expectUsageError(
      await owner.run('members', 'invite', email, '--role', 'VIEWER', '--ttl-hours', 'soon'),
      /Give a whole number from 1 to 720/,
    );
  });

  it('changes a role, by user id or by address', async () => {
    const mate = await registerUser(cli.api);
    await owner.json('members', 'add', mate.email, '--role', 'VIEWER');
    expect(ok(await owner.run('members', 'set-role', mate.id, 'ADMIN'))).toBe(
      `${mate.email} (${mate.id}) is now ADMIN.\n`,
    );
    expect((await owner.json('members', 'set-role', mate.email, 'billing')).role).toBe('BILLING');
    expect(await roleOf(mate)).toBe('BILLING');
    expectUsageError(await owner.run('members', 'set-role', mate.id, 'king'), /Accepted values/);
    expectApiError(await owner.run('members', 'set-role', owner.account.id, 'VIEWER'), 'SERVICE_VALIDATION_FAILED');
  });

  it('removes a member, by user id or by address', async () => {
    const a = await registerUser(cli.api);
    const b = await registerUser(cli.api);
    await owner.json('members', 'add', a.email, '--role', 'VIEWER');
    await owner.json('members', 'add', b.email, '--role', 'VIEWER');
    expect(ok(await owner.run('members', 'remove', a.id))).toBe(`Removed ${a.id} from project ${owner.projectId}.\n`);
    expect(ok(await owner.run('members', 'remove', b.email))).toBe(
      `Removed ${b.email} (${b.id}) from project ${owner.projectId}.\n`,
    );
    expect(await roleOf(a)).toBeUndefined();
    expect(await roleOf(b)).toBeUndefined();
    expectApiError(await owner.run('members', 'remove', a.id), 'SERVICE_MEMBER_NOT_FOUND');
    const unknown = await owner.run('members', 'remove', 'nobody@example.test');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`error: no member of project ${owner.projectId} has the address nobody@example.test\n`);
  });

  it('reports what a role may not do', async () => {
    const dev = await cli.signedIn();
    await owner.json('members', 'add', dev.account.email, '--role', 'DEVELOPER');
    expectApiError(await dev.run('members', 'list', '--project', owner.projectId), 'SERVICE_PERMISSION_DENIED');
  });
});
