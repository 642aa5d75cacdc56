import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { MAX_ROOM_PARTICIPANTS } from '../../server/rooms/limits.js';
import { cursorOption, environmentOption, limitOption, projectOption, wholeNumberUpTo } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

export function registerRoomCommands(program: Command, io: CliIo): void {
  const rooms = program.command('rooms').description('List and create rooms (one environment each)');

  rooms
    .command('list')
    .description('List the rooms of one environment, newest first, with live participant counts')
    .addOption(environmentOption('the environment to list (default development)'))
    .addOption(projectOption())
    .addOption(limitOption('rooms'))
    .addOption(cursorOption())
    .action(
      action(
        io,
        async (ctx, flags: { environment?: Environment; project?: string; limit?: number; cursor?: string }) => {
          const environment = flags.environment ?? 'development';
          const page = await ctx
            .client()
            .rooms.list(await ctx.projectId(flags.project), { environment, limit: flags.limit, cursor: flags.cursor });
          ctx.out.page(
            page,
            [
              { header: 'id', value: (r) => r.id },
              { header: 'name', value: (r) => r.name },
              { header: 'participants', value: (r) => String(r.participantCount) },
              { header: 'created', value: (r) => formatTime(r.createdAt) },
            ],
            `No ${environment} rooms.`,
          );
        },
      ),
    );

  rooms
    .command('create')
    .description('Create a room')
    .argument('<name>', 'unique within the environment')
    .option(
      '--max-participants <n>',
      `refuse joins beyond this (1 to ${MAX_ROOM_PARTICIPANTS})`,
      wholeNumberUpTo(MAX_ROOM_PARTICIPANTS),
    )
    .addOption(environmentOption('the room’s environment (default development)'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (ctx, name: string, flags: { environment?: Environment; project?: string; maxParticipants?: number }) => {
          const environment = flags.environment ?? 'development';
          const room = await ctx
            .client()
            .rooms.create(
              await ctx.projectId(flags.project),
              { name, ...(flags.maxParticipants ? { maxParticipants: flags.maxParticipants } : {}) },
              { environment },
            );
          ctx.out.result(room, () => `Created ${environment} room "${room.name}" (${room.id}).`);
        },
      ),
    );
}
