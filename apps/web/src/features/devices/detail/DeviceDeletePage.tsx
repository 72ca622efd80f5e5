import { Button, Card, Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from '../../../router/router';
import { useDeleteDevice } from '../device-api';
import { useRecentDevices } from '../recent/useRecentDevices';
import { useCurrentDevice } from './current-device';

export const DELETE_CONFIRMATION =
  'Are you certain about deleting this device? Please be aware that this action is permanent and cannot be undone.';
export const CONFIRM_REQUIRED = 'You must confirm to proceed';

/** /devices/{id}/delete: a required confirmation checkbox, then 'Delete this device' (SPEC §2, §5). */
export function DeviceDeletePage() {
  const device = useCurrentDevice();
  const [confirmed, setConfirmed] = useState(false);
  const [touched, setTouched] = useState(false);
  const remove = useDeleteDevice(device.id);
  const recent = useRecentDevices();
  const navigate = useNavigate();

  return (
    <Card withBorder radius="md" maw={640}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!confirmed) return;
          remove.mutate(undefined, {
            onSuccess: () => {
              recent.remove(device.id);
              void navigate('/devices/search', { replace: true });
            },
          });
        }}
      >
        <Stack>
          <Text>{DELETE_CONFIRMATION}</Text>
          <Checkbox
            label="I understand, delete this device"
            required
            checked={confirmed}
            onChange={(e) => {
              setConfirmed(e.currentTarget.checked);
              setTouched(true);
            }}
            error={touched && !confirmed ? CONFIRM_REQUIRED : undefined}
          />
          <Button type="submit" color="red" loading={remove.isPending} w="fit-content">
            Delete this device
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
