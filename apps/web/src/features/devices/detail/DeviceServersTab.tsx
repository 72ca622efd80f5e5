import { DeviceServersPage } from '../../servers/DeviceServersPage';
import { useCurrentDevice } from './current-device';

/**
 * /devices/{id}/servers (realm ADMIN): the servers feature's page for this device. The layout's tab
 * rules already send anyone else to the first visible tab, and the API answers non-admins 403.
 */
export function DeviceServersTab() {
  const device = useCurrentDevice();
  return <DeviceServersPage deviceId={device.id} />;
}
