import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { AlertTitle } from './AlertTitle';

/**
 * The alert toast: header 'Error' with a timestamp, a close button and the message as body.
 * It stays until closed, so an error is not missed while the user looks elsewhere.
 */
export function showAlert(message: string, date: Date = new Date()): void {
  notifications.show({
    title: <AlertTitle date={date} />,
    message,
    color: 'red',
    icon: <IconAlertTriangle size={18} />,
    withCloseButton: true,
    autoClose: false,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Close alert' },
    'data-alert': 'error',
  });
}
