import type { Command } from 'commander';
import type { ConsoleClient, ProjectRole } from '../../sdk/index.js';
import { MAX_INVITATION_HOURS } from '../../server/members/limits.js';
import { parseRole, projectOption, wholeNumberUpTo } from '../arguments.js';
import { action } from '../context.js';
import { CommandError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

/** A member's user id as given, or looked up by address (people know addresses, not ids). */
async function memberId(client: ConsoleClient, projectId: string, who: string): Promise<string> {
  if (!who.includes('@')) return who;
  const member = (await client.members.list(projectId)).data.find((m) => m.email.toLowerCase() === who.toLowerCase());
  if (!member) throw new CommandError(`no member of project ${projectId} has the address ${who}`);
  return member.userId;
}

export function registerMemberCommands(program: Command, io: CliIo): void {
  const members = program.command('members').description('Who has access to a project, with which role');
  const roles = 'OWNER, ADMIN, DEVELOPER, VIEWER or BILLING (any letter case)';

  members
    .command('list')
    .description('List the members, their roles and what the roles allow')
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { project?: string }) => {
        const list = await ctx.client().members.list(await ctx.projectId(flags.project));
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'user id', value: (m) => m.userId },
            { header: 'email', value: (m) => m.email },
            { header: 'name', value: (m) => m.name ?? '' },
            { header: 'role', value: (m) => m.role },
            { header: 'joined', value: (m) => formatTime(m.joinedAt) },
          ],
          'No members.',
        );
      }),
    );

  members
    .command('add')
    .description('Add someone who has an account (invite those who have none)')
    .argument('<email>', 'their account’s address')
    .requiredOption('--role <role>', roles, parseRole)
    .addOption(projectOption())
    .action(
      action(io, async (ctx, email: string, flags: { role: ProjectRole; project?: string }) => {
        const member = await ctx.client().members.add(await ctx.projectId(flags.project), { email, role: flags.role });
        ctx.out.result(member, () => `Added ${member.email} (${member.userId}) as ${member.role}.`);
      }),
    );

  members
    .command('invite')
    .description('Invite an address without an account: prints the invitation they register with')
    .argument('<email>', 'their address')
    .requiredOption('--role <role>', roles, parseRole)
    .option(
      '--ttl-hours <hours>',
      `how long the invitation works (1 to ${MAX_INVITATION_HOURS}, default 72)`,
      wholeNumberUpTo(MAX_INVITATION_HOURS),
    )
    .addOption(projectOption())
    .action(
      action(io, async (ctx, email: string, flags: { role: ProjectRole; ttlHours?: number; project?: string }) => {
        const invitation = await ctx.client().members.invite(await ctx.projectId(flags.project), {
          email,
          role: flags.role,
          ttlHours: flags.ttlHours,
        });
        ctx.out.result(invitation, () =>
          [
            `Invited ${invitation.email} as ${invitation.role} (until ${formatTime(invitation.expiresAt)}).`,
            'They register with this invitation (it is shown once):',
            `  switchboard register --email ${invitation.email} --invitation ${invitation.token}`,
            '',
            invitation.token,
          ].join('\n'),
        );
      }),
    );

  members
    .command('set-role')
    .description('Change a member’s role')
    .argument('<userId>', 'the member’s user id (usr_…) or address')
    .argument('<role>', roles, parseRole)
    .addOption(projectOption())
    .action(
      action(io, async (ctx, who: string, role: ProjectRole, flags: { project?: string }) => {
        const client = ctx.client();
        const projectId = await ctx.projectId(flags.project);
        const member = await client.members.setRole(projectId, await memberId(client, projectId, who), role);
        ctx.out.result(member, () => `${member.email} (${member.userId}) is now ${member.role}.`);
      }),
    );

  members
    .command('remove')
    .description('Remove a member from the project')
    .argument('<userId>', 'the member’s user id (usr_…) or address')
    .addOption(projectOption())
    .action(
      action(io, async (ctx, who: string, flags: { project?: string }) => {
        const client = ctx.client();
        const projectId = await ctx.projectId(flags.project);
        const userId = await memberId(client, projectId, who);
        await client.members.remove(projectId, userId);
        ctx.out.line(`Removed ${who === userId ? userId : `${who} (${userId})`} from project ${projectId}.`);
      }),
    );
}
