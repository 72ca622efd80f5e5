import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Where the toasts appear (alerts bottom right); loaded with the first toast (MantineRoot). */
export function ToastOutlet() {
  return <Notifications position="bottom-right" limit={5} />;
}
