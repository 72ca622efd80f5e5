import { RealmRole } from '@fleetlink/contract';
import { Route, Routes } from '../../router/router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { ManagersOnly } from './detail/ManagersOnly';
import { lazyPage } from '../../app/router/lazy-page';
import { deviceQuery, deviceSearchQuery } from './device-api';
import { searchPageOf } from './search/search-page-params';

// Each page is its own chunk, loaded when first shown.
const DevicesLandingPage = lazyPage(() => import('./DevicesLandingPage'), 'DevicesLandingPage', { path: '/devices' });
const DeviceCommandPage = lazyPage(() => import('./command/DeviceCommandPage'), 'DeviceCommandPage');
const DeviceTerminalPage = lazyPage(() => import('./terminal/DeviceTerminalPage'), 'DeviceTerminalPage');
const DeviceDeletePage = lazyPage(() => import('./detail/DeviceDeletePage'), 'DeviceDeletePage');
const DeviceInstallPage = lazyPage(() => import('./detail/DeviceInstallPage'), 'DeviceInstallPage');
const DeviceLayout = lazyPage(() => import('./detail/DeviceLayout'), 'DeviceLayout', {
  path: '/devices/:id/*',
  roles: [RealmRole.User],
  prefetch: ({ queryClient, api, params }) => queryClient.prefetchQuery(deviceQuery(api, params.id!)),
});
const DeviceServersTab = lazyPage(() => import('./detail/DeviceServersTab'), 'DeviceServersTab');
// Its path is listed so that /devices/new is not taken for a device's (/devices/:id).
const DeviceCreatePage = lazyPage(() => import('./form/DeviceFormPages'), 'DeviceCreatePage', { path: '/devices/new' });
const DeviceEditPage = lazyPage(() => import('./form/DeviceFormPages'), 'DeviceEditPage');
const DeviceSearchPage = lazyPage(() => import('./search/DeviceSearchPage'), 'DeviceSearchPage', {
  path: '/devices/search',
  roles: [RealmRole.User],
  prefetch: ({ queryClient, api, search }) => queryClient.prefetchQuery(deviceSearchQuery(api, searchPageOf(search).query)),
});
const DeviceStoragePage = lazyPage(() => import('./files/DeviceStoragePage'), 'DeviceStoragePage');
const DeviceMonitorsPage = lazyPage(() => import('./monitors/DeviceMonitorsPage'), 'DeviceMonitorsPage');
const MonitorFormPage = lazyPage(() => import('./monitors/MonitorFormPage'), 'MonitorFormPage');
const DeviceSummaryPage = lazyPage(() => import('./summary/DeviceSummaryPage'), 'DeviceSummaryPage');
const DeviceTunnelsPage = lazyPage(() => import('./tunnels/DeviceTunnelsPage'), 'DeviceTunnelsPage');
const TunnelFormPage = lazyPage(() => import('./tunnels/TunnelFormPage'), 'TunnelFormPage');

/** Everything under /devices (SPEC §2 Devices); mounted by the shell's router. */
export function DevicesRoutes() {
  return (
    <Routes>
      <Route index element={<DevicesLandingPage />} />
      <Route path="new" element={<DeviceCreatePage />} />
      <Route path="search" element={<DeviceSearchPage />} />
      <Route path=":id" element={<DeviceLayout />}>
        <Route index element={<DeviceSummaryPage />} />
        <Route path="tunnels" element={<DeviceTunnelsPage />} />
        <Route path="tunnels/new" element={<ManagersOnly><TunnelFormPage /></ManagersOnly>} />
        <Route path="tunnels/:tunnelId" element={<ManagersOnly><TunnelFormPage /></ManagersOnly>} />
        <Route path="file" element={<DeviceStoragePage />} />
        <Route path="monitor" element={<DeviceMonitorsPage />} />
        <Route path="monitor/new" element={<ManagersOnly><MonitorFormPage /></ManagersOnly>} />
        <Route path="monitor/:monitorId" element={<ManagersOnly><MonitorFormPage /></ManagersOnly>} />
        <Route path="install" element={<DeviceInstallPage />} />
        <Route path="edit" element={<ManagersOnly><DeviceEditPage /></ManagersOnly>} />
        <Route path="delete" element={<ManagersOnly><DeviceDeletePage /></ManagersOnly>} />
        <Route path="servers" element={<DeviceServersTab />} />
        <Route path="command" element={<DeviceCommandPage />} />
        <Route path="terminal" element={<DeviceTerminalPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
