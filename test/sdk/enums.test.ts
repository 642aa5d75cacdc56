import { describe, expect, it } from 'vitest';
import { PROJECT_ROLES as SERVER_ROLES } from '../../db/schema/projects.js';
import { ENVIRONMENTS, FAULT_KINDS, PROJECT_ROLES } from '../../sdk/index.js';
import { ENVIRONMENTS as SERVER_ENVIRONMENTS } from '../../server/environments.js';
import { FAULT_KINDS as SERVER_FAULT_KINDS } from '../../server/faults/schemas.js';

describe('the SDK’s enum values', () => {
  it('are the server’s, in the server’s order (a role picker or environment switcher lists them as the API does)', () => {
    expect(ENVIRONMENTS).toEqual(SERVER_ENVIRONMENTS);
    expect(PROJECT_ROLES).toEqual(SERVER_ROLES);
    expect(FAULT_KINDS).toEqual(SERVER_FAULT_KINDS);
  });
});
