import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from '../../router/router';

export function ContactLink({ children = 'contact form' }: { children?: ReactNode }) {
  return (
    <Anchor component={Link} to="/contact" inherit>
      {children}
    </Anchor>
  );
}
