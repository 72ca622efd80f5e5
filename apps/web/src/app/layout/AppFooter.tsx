import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from '../../router/router';

const links = [
  { to: '/terms-service', label: 'Terms of service' },
  { to: '/privacy-policy', label: 'Privacy policy' },
  { to: '/contact', label: 'Contact' },
];

export function AppFooter() {
  return (
    <Container size="lg" w="100%" component="footer" pb="lg" mt="xl">
      <Group justify="space-between" gap="sm" pt="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Text size="sm" c="dimmed">
          © {new Date().getFullYear()} Fleetlink
        </Text>
        <Group gap="lg">
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
              {link.label}
            </Anchor>
          ))}
        </Group>
      </Group>
    </Container>
  );
}
