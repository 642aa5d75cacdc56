import { SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Environment, Project } from '../../sdk';
import { environmentLabel, useProjectRoute } from '../../shell/project-page';
import { ResetEnvironment } from '../reset-environment';
import { Faults } from './faults';
import { Snapshots } from './snapshots';
import { TestClock } from './test-clock';

const TESTABLE: Environment[] = ['development', 'staging'];

/**
 * The tools for testing an app against development or staging, for one of them at a time: its clock, the faults
 * injected into it, its snapshots, and resetting it. Production is shown and cannot be chosen: the server refuses all three there.
 */
export function TestingTools({ project }: { project: Project }) {
  const route = useProjectRoute();
  const [environment, setEnvironment] = useState<Environment>(
    TESTABLE.includes(route.environment) ? route.environment : 'development',
  );
  return (
    <Stack gap="sm" component="section" aria-label="Testing tools">
      <div>
        <Title order={2} size="h3">
          Testing tools
        </Title>
        <Text size="sm" c="dimmed">
          For testing your app against this project: move an environment’s clock, make it misbehave on purpose, save and
          restore snapshots of it, or empty it between test runs. Production is never touched.
        </Text>
      </div>
      <SegmentedControl
        aria-label="Environment to test"
        w="fit-content"
        value={environment}
        onChange={(value) => setEnvironment(value as Environment)}
        data={[
          ...TESTABLE.map((env) => ({ value: env, label: environmentLabel(env) })),
          { value: 'production', label: environmentLabel('production'), disabled: true },
        ]}
      />
      <Text size="sm" c="dimmed">
        Production cannot be chosen: its data is your live app’s.
      </Text>
      <TestClock key={`clock-${environment}`} project={project} environment={environment} />
      <Faults key={`faults-${environment}`} project={project} environment={environment} />
      <Snapshots key={`snapshots-${environment}`} project={project} environment={environment} />
      <ResetEnvironment key={`reset-${environment}`} project={project} environment={environment} />
    </Stack>
  );
}
