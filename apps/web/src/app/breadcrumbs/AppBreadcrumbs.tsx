import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from '../../router/router';

export interface Crumb {
  /** A page title, or for entities `entityLabel(...)`: the name, or the first 8 characters of the id. */
  label: string;
  /** Omitted for the current page. */
  to?: string;
}

/** Where the page sits in the console; every crumb but the current page is a link. */
export function AppBreadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <Breadcrumbs mb="md" separatorMargin={6} aria-label="Breadcrumb">
      {items.map((item, index) =>
        item.to && index < items.length - 1 ? (
          <Anchor key={index} component={Link} to={item.to} size="sm">
            {item.label}
          </Anchor>
        ) : (
          <Text key={index} size="sm" c="dimmed" aria-current="page">
            {item.label}
          </Text>
        ),
      )}
    </Breadcrumbs>
  );
}
