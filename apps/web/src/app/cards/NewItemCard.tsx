import { Card, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from '../../router/router';

/** The dashed card at the end of a grid of cards that links to a new one (SPEC §2: 'A card links to new'). */
export function NewItemCard({ to, label, minHeight = 120 }: { to: string; label: string; minHeight?: number }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label={label}>
      <Card withBorder radius="md" padding="md" h="100%" style={{ borderStyle: 'dashed' }}>
        <Stack align="center" justify="center" gap={4} h="100%" mih={minHeight}>
          <IconPlus size={28} aria-hidden />
          <Text fw={600}>{label}</Text>
        </Stack>
      </Card>
    </UnstyledButton>
  );
}
