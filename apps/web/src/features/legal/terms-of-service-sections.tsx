import { List, Text } from '@mantine/core';
import { ContactLink } from './ContactLink';
import type { LegalSection } from './LegalPage';

export const termsOfServiceSections: LegalSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    body: (
      <Text inherit>
        These terms govern your use of Fleetlink: the web console, the Fleetlink agent you install on your devices,
        the message and tunnel servers they connect to, and the related downloads and documentation (together, the
        &quot;service&quot;). Fleetlink lets you register remote devices, see their status and metrics, browse their
        files, run commands and open network tunnels to them.
      </Text>
    ),
  },
  {
    id: 'acceptance-of-terms',
    title: 'Acceptance of terms',
    body: (
      <Text inherit>
        By signing in to the console or installing the agent you accept these terms. If you use the service on behalf
        of a company or other organization, you confirm that you may accept them for it. If you do not accept these
        terms, do not use the service.
      </Text>
    ),
  },
  {
    id: 'user-conduct',
    title: 'User conduct',
    body: (
      <>
        <Text inherit>You are responsible for your account, your organizations and the devices you register. You agree not to:</Text>
        <List size="sm" spacing={4}>
          <List.Item>install the agent on, or open tunnels to, devices you are not authorized to administer;</List.Item>
          <List.Item>use tunnels to publish unlawful content, malware, or services that attack other networks;</List.Item>
          <List.Item>
            try to access devices, organizations or data of others, or to bypass the service&apos;s security or
            usage limits;
          </List.Item>
          <List.Item>share your sign-in credentials or device installation keys with people who should not have them.</List.Item>
        </List>
        <Text inherit>Tell us through the <ContactLink /> if you learn of misuse of the service.</Text>
      </>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    body: (
      <Text inherit>
        The service, including its software, agent bundles and documentation, remains the property of Fleetlink and
        its licensors. You receive a limited, non-exclusive, non-transferable right to use it for managing your
        devices while these terms apply. Data you and your devices send to the service stays yours; you allow us to
        process it only to provide the service.
      </Text>
    ),
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    body: (
      <Text inherit>
        The service is provided &quot;as is&quot; and &quot;as available&quot;. Remote devices depend on networks,
        power and hardware outside our control, so we cannot guarantee that a device, command, file transfer or tunnel
        is reachable at any given time. Commands you run and files you change on a device take effect immediately and
        may not be reversible; keep backups of important data.
      </Text>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    body: (
      <Text inherit>
        To the extent the law allows, Fleetlink is not liable for indirect or consequential damages, such as lost
        profits, lost data or business interruption, arising from the use of the service. Our total liability for any
        claim is limited to the amount you paid for the service in the twelve months before the claim. Nothing in
        these terms limits liability that cannot be limited by law.
      </Text>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <Text inherit>
        You may stop using the service at any time and remove the agent from your devices. We may suspend or end your
        access if you break these terms or if continued access would put the service or others at risk; where
        possible we tell you first. On termination your devices are disconnected, and you may ask us to export or
        delete your data through the <ContactLink />.
      </Text>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    body: (
      <Text inherit>
        These terms are governed by the laws of the European Union and, where a matter is not covered by them, by the
        law of the member state in which Fleetlink is established. Mandatory consumer protection rules of your country
        of residence continue to apply.
      </Text>
    ),
  },
  {
    id: 'updates-and-modifications',
    title: 'Updates and modifications',
    body: (
      <Text inherit>
        We improve the service continuously and may change or update these terms. The date at the top shows the latest
        revision; we announce significant changes in the console before they take effect, and continuing to use the
        service afterwards means you accept them. Questions about these terms are welcome through the{' '}
        <ContactLink />.
      </Text>
    ),
  },
];
