import { RealmRole } from '@fleetlink/contract';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBuilding, IconDevices, IconSettings } from '@tabler/icons-react';
import { useSession } from '../../app/auth/useSession';
import { FeatureCard } from './FeatureCard';
import { PageTitle } from '../../app/a11y/PageTitle';

/** Home: the areas of the console this user can work in. */
export function HomePage() {
  const session = useSession();
  const firstName = session.name?.split(/\s+/)[0];

  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <PageTitle title="Home">{firstName ? `Welcome, ${firstName}` : 'Welcome to Fleetlink'}</PageTitle>
        <Text c="dimmed">Register, monitor and manage the devices that run the Fleetlink agent.</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        <FeatureCard
          title="Devices"
          icon={<IconDevices size={22} />}
          description="Find your devices, check their status, metrics and files, run commands and open network tunnels."
          links={[
            { to: '/devices/search', label: 'Find devices' },
            { to: '/devices/new', label: 'Create new device' },
          ]}
        />
        <FeatureCard
          title="Organizations"
          icon={<IconBuilding size={22} />}
          description="Share devices with the members of your personal or company organizations, manage domains and invoices."
          links={[{ to: '/organizations', label: 'My Organizations' }]}
        />
        {session.hasRole(RealmRole.Admin) ? (
          <FeatureCard
            title="Manage"
            icon={<IconSettings size={22} />}
            description="Operate message and proxy servers, publish agent bundles and releases, run commands on many devices at once, read the audit trail and rebuild the search index."
            links={[
              { to: '/servers', label: 'Servers' },
              { to: '/jobs', label: 'Jobs' },
              { to: '/agent', label: 'Bundles and Releases' },
              { to: '/operator/audit', label: 'Audit trail' },
              { to: '/operator', label: 'Rebuild index' },
            ]}
          />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}
