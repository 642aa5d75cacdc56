import type { Command } from 'commander';
import leven from 'leven';
import {
  type ConsoleClient,
  type Environment,
  SwitchboardError,
  type TriggeredEvent,
  type TriggeredObjects,
  type WebhookEventType,
} from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatFields } from '../output.js';

/** What the trigger made or acted on, one line per kind, for people. */
function describeObjects(o: TriggeredObjects): [label: string, value: string][] {
  const lines: [string, string][] = [];
  if (o.liveStream) lines.push(['Live stream', `${o.liveStream.id} "${o.liveStream.title}" (${o.liveStream.status})`]);
  if (o.liveStreamParticipant) {
    const p = o.liveStreamParticipant;
    lines.push([p.role === 'HOST' ? 'Host' : 'Viewer', `${p.identity} of ${p.liveStreamId}`]);
  }
  if (o.room) lines.push(['Room', `${o.room.id} "${o.room.name}"`]);
  if (o.participant) lines.push(['Participant', `${o.participant.identity} (joined and left ${o.participant.roomId})`]);
  if (o.conversation) {
    const members = o.conversation.members.join(', ') || 'none';
    lines.push(['Conversation', `${o.conversation.id} "${o.conversation.name}" (members: ${members})`]);
  }
  if (o.member) lines.push(['Member', `${o.member.userId} of ${o.member.conversationId}`]);
  if (o.message) lines.push(['Message', `${o.message.id} from ${o.message.senderId}`]);
  if (o.reaction) lines.push(['Reaction', `${o.reaction.emoji} by ${o.reaction.userId} on ${o.reaction.messageId}`]);
  return lines;
}

/** `a, b, b, c` → `a, b ×2, c`: the events in order, repeats counted. */
function describeEvents(events: readonly string[]): string {
  const runs: [string, number][] = [];
  for (const event of events) {
    const last = runs.at(-1);
    if (last?.[0] === event) last[1]++;
    else runs.push([event, 1]);
  }
  return runs.map(([event, n]) => (n > 1 ? `${event} ×${n}` : event)).join(', ');
}

const describeTrigger = (t: TriggeredEvent, projectId: string) =>
  [
    `Triggered ${t.event} in ${t.environment} of ${projectId}.`,
    formatFields(describeObjects(t.objects).map(([label, value]) => [`  ${label}`, value])),
    `Events emitted: ${describeEvents(t.events)}`,
  ].join('\n');

/**
 * The known events closest to a mistyped one: within a third of its length in edits (`message.create`,
 * `mesage.created`, `room.create`), nearest first; several only when equally near.
 */
export function closestEvents(typed: string, known: readonly string[]): string[] {
  const scored = known.map((event) => ({ event, distance: leven(typed.toLowerCase(), event) }));
  const near = scored.filter((s) => s.distance <= Math.max(2, Math.floor(typed.length / 3)));
  const best = Math.min(...near.map((s) => s.distance));
  return near.filter((s) => s.distance === best).map((s) => s.event);
}

/**
 * An event the catalogue lacks, as a usage error that suggests the closest ones. Asked of the server only once it has
 * refused the event: the catalogue is its to keep.
 */
async function unknownEvent(client: ConsoleClient, projectId: string, event: string): Promise<UsageError | undefined> {
  const known: string[] = (await client.environments.triggers(projectId)).map((t) => t.event);
  if (known.includes(event)) return undefined;
  const closest = closestEvents(event, known);
  const suggestion = closest.length ? `; did you mean ${closest.join(' or ')}?` : '';
  return new UsageError(
    `no event "${event}" can be triggered${suggestion} (\`switchboard trigger --list\` shows them all)`,
  );
}

export function registerTriggerCommand(program: Command, io: CliIo): void {
  program
    .command('trigger')
    .description(
      'Make an event happen in an environment, like `stripe trigger`: create the objects it needs through the ' +
        'server’s services, so that the real event reaches your webhooks and sockets. Never production',
    )
    .argument('[event]', 'an event type of the catalogue, e.g. message.created (see --list)')
    .option('--list', 'list the events that can be triggered, with what each trigger does')
    .addOption(environmentOption('the environment to act in (default development; production is refused)'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          event: string | undefined,
          flags: { list?: boolean; environment?: Environment; project?: string },
        ) => {
          if (flags.list && event !== undefined) throw new UsageError('give an event to trigger or --list, not both');
          if (!flags.list && event === undefined)
            throw new UsageError('give the event to trigger, e.g. `switchboard trigger message.created` (--list: all)');
          const client = ctx.client();
          const projectId = await ctx.projectId(flags.project);
          if (flags.list || event === undefined) {
            const triggers = await client.environments.triggers(projectId);
            ctx.out.table(
              { data: triggers },
              triggers,
              [
                { header: 'event', value: (t) => t.event },
                { header: 'what it does', value: (t) => t.description },
              ],
              'No events can be triggered.',
            );
            return;
          }
          const triggered = await client.environments
            .trigger(projectId, {
              environment: flags.environment ?? 'development',
              // Checked by the server; an event it refuses is looked up in its catalogue for a suggestion.
              event: event as WebhookEventType,
            })
            .catch(async (err: unknown) => {
              const refused = err instanceof SwitchboardError && err.code === 'SERVICE_VALIDATION_FAILED';
              throw (refused && (await unknownEvent(client, projectId, event))) || err;
            });
          ctx.out.result(triggered, () => describeTrigger(triggered, projectId));
        },
      ),
    );
}
