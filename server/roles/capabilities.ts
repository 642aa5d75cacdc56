import { PROJECT_ROLES, type ProjectRole } from '../../db/schema/projects.js';

export const CAPABILITIES = [
  'project:read',
  'project:write',
  'project:delete',
  'members:read',
  'members:manage',
  'keys:read',
  'keys:manage',
  'webhooks:read',
  'webhooks:manage',
  'rooms:write',
  'chat:read',
  'live-streams:write',
  'usage:read',
  'audit:read',
  'billing:manage',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ALL = CAPABILITIES;

/**
 * The one table of roles → capabilities, written from the role descriptions of the spec (5.4).
 * Every member, whatever the role, may see the project record itself (id, name): that takes
 * membership only. `project:read` is the right to read what runs in the project (rooms, live
 * streams, connections, errors, metrics, diagnostics).
 */
export const ROLE_CAPABILITIES: Record<ProjectRole, readonly Capability[]> = {
  /** Everything, including deleting the project and creating or removing other owners. */
  OWNER: ALL,
  /** Everything except deleting the project; the owner-only rules live in the members service. */
  ADMIN: ALL.filter((c) => c !== 'project:delete'),
  /** Keys, webhooks, rooms (and the runtime resources around them); not who has access. */
  DEVELOPER: [
    'project:read',
    'keys:read',
    'keys:manage',
    'webhooks:read',
    'webhooks:manage',
    'rooms:write',
    'chat:read',
    'live-streams:write',
    'usage:read',
  ],
  /** Read-only: every read capability, no change. */
  VIEWER: ['project:read', 'members:read', 'keys:read', 'webhooks:read', 'chat:read', 'usage:read', 'audit:read'],
  /** Usage and billing only: no conversations, connections or keys. */
  BILLING: ['usage:read', 'billing:manage'],
};

export function hasCapability(role: ProjectRole, capability: Capability): boolean {
  return ROLE_CAPABILITIES[role].includes(capability);
}

/** In the order of CAPABILITIES, so that clients can diff lists. */
export function capabilitiesOf(role: ProjectRole): Capability[] {
  return CAPABILITIES.filter((c) => ROLE_CAPABILITIES[role].includes(c));
}

export { PROJECT_ROLES, type ProjectRole };
