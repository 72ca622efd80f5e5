import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { Link } from '../../router/router';

export function BrandLink() {
  return (
    <Link to="/" style={{ textDecoration: 'none', color: 'inherit', marginRight: 12 }} aria-label="Fleetlink home">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={32} radius="md" variant="filled">
          <IconBroadcast size={20} />
        </ThemeIcon>
        <Text fw={700} size="lg" visibleFrom="xs">
          Fleetlink
        </Text>
      </Group>
    </Link>
  );
}
