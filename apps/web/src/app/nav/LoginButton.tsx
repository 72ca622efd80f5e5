import { Button } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { useLocation } from '../../router/router';
import { currentAppUrl } from '../auth/return-url';
import { useSession } from '../auth/useSession';

/** Shown when signed out: sign in and come back to this page. */
export function LoginButton() {
  const session = useSession();
  const location = useLocation();
  return (
    <Button leftSection={<IconLogin size={16} />} onClick={() => void session.signIn(currentAppUrl(location))}>
      Login
    </Button>
  );
}
