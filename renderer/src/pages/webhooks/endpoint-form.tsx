import { Button, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useWebhookCatalogue } from '../../api/webhooks';
import type { WebhookEventType } from '../../sdk';

export interface EndpointFormValues {
  url: string;
  events: WebhookEventType[];
}

/** URL and subscribed events, chosen from the server's catalogue: adding an endpoint and editing one. */
export function EndpointForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: EndpointFormValues;
  submitLabel: string;
  pending: boolean;
  onSubmit(values: EndpointFormValues): void;
}) {
  const catalogue = useWebhookCatalogue();
  const form = useForm<EndpointFormValues>({ initialValues: initial });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit({ ...values, url: values.url.trim() }))}>
      <Stack gap="sm">
        <TextInput
          label="Endpoint URL"
          description="Where the server POSTs each event. A local server accepts http:// and localhost."
          placeholder="http://localhost:3000/webhooks"
          required
          data-autofocus
          {...form.getInputProps('url')}
        />
        <MultiSelect
          label="Events"
          description="None chosen: every event, including types added later."
          placeholder={form.values.events.length === 0 ? 'All events' : undefined}
          data={(catalogue.data ?? []).map((entry) => ({ value: entry.type, label: entry.type }))}
          searchable
          clearable
          nothingFoundMessage="No such event type"
          {...form.getInputProps('events')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
