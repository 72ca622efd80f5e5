import { List, Text } from '@mantine/core';
import { ContactLink } from './ContactLink';
import type { LegalSection } from './LegalPage';

export const privacyPolicySections: LegalSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    body: (
      <>
        <Text inherit>
          This privacy policy explains which personal data Fleetlink processes when you use the Fleetlink console, the
          Fleetlink agent installed on your devices, and the network tunnels provided through Fleetlink, why we process
          it, and which rights you have.
        </Text>
        <Text inherit>
          We process personal data in accordance with the General Data Protection Regulation (EU) 2016/679 (GDPR). For
          questions about this policy or your data, use our <ContactLink />.
        </Text>
      </>
    ),
  },
  {
    id: 'information-collection',
    title: 'Information we collect',
    body: (
      <>
        <Text inherit>We collect only what we need to run the service:</Text>
        <List size="sm" spacing={4}>
          <List.Item>
            Account data: your name, e-mail address and the roles assigned to you by your identity provider, and when
            you first and last signed in.
          </List.Item>
          <List.Item>
            Organization data: organization names, postal addresses, telephone numbers, e-mail addresses and VAT
            numbers you enter, the members you invite, and the invoices we issue.
          </List.Item>
          <List.Item>
            Device data reported by the agent: host name, operating system, network addresses, hardware utilization,
            agent versions, file and drive listings you request, and when the device was last seen online.
          </List.Item>
          <List.Item>
            Technical data: server logs of requests to the console and to tunnels (time, IP address, path and result),
            kept to operate and secure the service.
          </List.Item>
          <List.Item>Messages you send us through the contact form.</List.Item>
        </List>
        <Text inherit>
          The console keeps your sign-in tokens in memory only; it does not use advertising or tracking cookies. Small
          functional cookies remember preferences such as your recently opened devices and list or grid view.
        </Text>
      </>
    ),
  },
  {
    id: 'information-sharing',
    title: 'How we share information',
    body: (
      <>
        <Text inherit>
          We do not sell personal data. Device and organization data is visible to the members of the organization the
          device belongs to, according to the role each member has been given.
        </Text>
        <Text inherit>
          We share data with processors that host and operate the service for us (hosting, e-mail delivery, payment and
          invoicing), bound by data processing agreements, and with authorities when the law requires it. Data is
          stored within the European Union.
        </Text>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <>
        <Text inherit>
          All traffic between your browser, the console and your devices is encrypted. Devices authenticate with their
          own credentials and can reach only their own messages and tunnels. Access to the console requires signing in,
          and every request is checked against your organization membership.
        </Text>
        <Text inherit>
          Tunnels you open expose a service of your device to the internet; protect them with the IP allow-list and
          password options Fleetlink offers. No system is perfectly secure: if you suspect a security problem, tell us
          at once through the <ContactLink />.
        </Text>
      </>
    ),
  },
  {
    id: 'third-party-links',
    title: 'Third-party links',
    body: (
      <Text inherit>
        The console and tunnels may lead to websites and services that we do not operate, including services running
        on your own devices. This policy does not cover them; read the privacy policy of each such service before you
        give it personal data.
      </Text>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <>
        <Text inherit>
          We may update this policy when the service or the law changes. The date at the top shows the latest
          revision; we announce significant changes in the console before they take effect.
        </Text>
        <Text inherit>
          You may ask to access, correct, export or erase your personal data, or object to its processing, at any time
          through the <ContactLink />. You also have the right to lodge a complaint with your data protection
          authority.
        </Text>
      </>
    ),
  },
];
