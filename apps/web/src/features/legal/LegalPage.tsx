import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { formatLongDate } from '../../app/format/date-format';
import { HEADER_HEIGHT } from '../../app/layout/AppLayout';
import { PageTitle } from '../../app/a11y/PageTitle';

export interface LegalSection {
  /** The anchor other pages and e-mails link to, e.g. /privacy-policy#security. */
  id: string;
  title: string;
  body: ReactNode;
}

/** Both legal texts were last revised on this date. */
export const LEGAL_LAST_UPDATED = new Date(2023, 2, 27);

/** A static legal text: contents with links to every section anchor, then the sections. */
export function LegalPage({ title, sections }: { title: string; sections: LegalSection[] }) {
  return (
    <Stack gap="lg" maw={820}>
      <AppBreadcrumbs items={[{ label: 'Home', to: '/' }, { label: title }]} />
      <Stack gap={4}>
        <PageTitle title={title} />
        <Text size="sm" c="dimmed">
          Last updated {formatLongDate(LEGAL_LAST_UPDATED)}
        </Text>
      </Stack>
      <Paper withBorder p="md" component="nav" aria-label="Contents">
        <Text fw={600} size="sm" mb="xs">
          Contents
        </Text>
        <List type="ordered" size="sm" spacing={4}>
          {sections.map((section) => (
            <List.Item key={section.id}>
              <Anchor href={`#${section.id}`} size="sm">
                {section.title}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Paper>
      {sections.map((section, index) => (
        // The margin keeps a section heading clear of the fixed header when jumped to.
        <section key={section.id} id={section.id} style={{ scrollMarginTop: HEADER_HEIGHT + 16 }}>
          <Title order={2} size="h3" mb="xs">
            {index + 1}. {section.title}
          </Title>
          <Stack gap="xs" fz="sm" lh={1.6}>
            {section.body}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}
