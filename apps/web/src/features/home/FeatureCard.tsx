import { Anchor, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from '../../router/router';

export interface FeatureLink {
  to: string;
  label: string;
}

interface FeatureCardProps {
  title: string;
  description: string;
  icon: ReactNode;
  links: FeatureLink[];
}

/** A card on the home page: one area of the console and its main entry points. */
export function FeatureCard({ title, description, icon, links }: FeatureCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-label={title}>
      <Stack gap="sm" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="md" variant="light">
            {icon}
          </ThemeIcon>
          <Title order={2} size="h3">{title}</Title>
        </Group>
        <Text size="sm" c="dimmed" style={{ flex: 1 }}>
          {description}
        </Text>
        <Group gap="md" style={{ rowGap: 4 }}>
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} size="sm" fw={500}>
              {link.label}
            </Anchor>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}
