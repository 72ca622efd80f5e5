import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { DevicesLandingPage } from './DevicesLandingPage';
import { DeviceCommandPage } from './command/DeviceCommandPage';
import { DeviceTerminalPage } from './terminal/DeviceTerminalPage';
import { DeviceDeletePage } from './detail/DeviceDeletePage';
import { DeviceInstallPage } from './detail/DeviceInstallPage';
import { DeviceLayout } from './detail/DeviceLayout';
import { DeviceServersTab } from './detail/DeviceServersTab';
import { ManagersOnly } from './detail/ManagersOnly';
import { DeviceCreatePage, DeviceEditPage } from './form/DeviceFormPages';
import { DeviceSearchPage } from './search/DeviceSearchPage';
import { DeviceStoragePage } from './files/DeviceStoragePage';
import { DeviceMonitorsPage } from './monitors/DeviceMonitorsPage';
import { MonitorFormPage } from './monitors/MonitorFormPage';
import { DeviceSummaryPage } from './summary/DeviceSummaryPage';
import { DeviceTunnelsPage } from './tunnels/DeviceTunnelsPage';
import { TunnelFormPage } from './tunnels/TunnelFormPage';

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
