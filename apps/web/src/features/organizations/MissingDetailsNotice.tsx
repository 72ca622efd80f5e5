import { missingOrganizationDetails, type OrganizationDetail } from '@fleetlink/contract';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from '../../router/router';

/** 'Country', 'Country and Address', 'Country, Address and Email'. */
const listed = (labels: string[]) => (labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : (labels[0] ?? ''));

/**
 * Says what an organization still lacks by the form's rules, and why it matters: the PERSONAL
 * organization made at first sign-in has no country or address, which invoices need. Managers get
 * the way to fill them in.
 */
export function MissingDetailsNotice({ organization, canEdit }: { organization: OrganizationDetail; canEdit: boolean }) {
  const missing = missingOrganizationDetails(organization);
  if (missing.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} title="Details missing" data-testid="organization-missing">
      <Text size="sm">
        {listed(missing)} {missing.length === 1 ? 'is' : 'are'} still missing. Invoices need the organization&apos;s country and address.{' '}
        {canEdit ? (
          <Anchor component={Link} to={`/organizations/${organization.id}/edit`} size="sm">
            Complete the details
          </Anchor>
        ) : (
          'An administrator of the organization can complete them.'
        )}
      </Text>
    </Alert>
  );
}
