import type { Command } from 'commander';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

export function registerProjectCommands(program: Command, io: CliIo): void {
  const projects = program.command('projects').description('List, create and choose projects');

  projects
    .command('list')
    .description('List your projects and your role in each; * marks the one in use')
    .action(
      action(io, async (ctx) => {
        const list = await ctx.client().projects.list();
        const inUse = ctx.folder.project(ctx.url);
        ctx.out.table(
          list,
          list.data,
          [
            { header: '', value: (p) => (p.id === inUse ? '*' : '') },
            { header: 'id', value: (p) => p.id },
            { header: 'name', value: (p) => p.name },
            { header: 'role', value: (p) => p.role },
            { header: 'created', value: (p) => formatTime(p.createdAt) },
          ],
          'No projects yet. Create one with `switchboard projects create <name>`.',
        );
      }),
    );

  projects
    .command('create')
    .description('Create a project; you become its OWNER')
    .argument('<name>', 'the project’s name')
    .action(
      action(io, async (ctx, name: string) => {
        const project = await ctx.client().projects.create({ name });
        ctx.out.result(
          project,
          () =>
            `Created project ${project.name} (${project.id}).\n` +
            `Run \`switchboard projects use ${project.id}\` to make project commands act on it.`,
        );
      }),
    );

  projects
    .command('use')
    .description('Choose the project that project commands act on when --project is not given')
    .argument('<id>', 'the project’s id (prj_…)')
    .action(
      action(io, async (ctx, id: string) => {
        // Checked first, so that a typo or someone else's project is refused now rather than later.
        const project = await ctx.client().projects.get(id);
        ctx.folder.useProject(ctx.url, project.id);
        ctx.out.result(project, () => `Using project ${project.name} (${project.id}) on ${ctx.url}.`);
      }),
    );
}
