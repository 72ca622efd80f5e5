import type { Device } from '@fleetlink/contract';
import { useOutletContext } from '../../../router/router';

/**
 * The device its pages show, given to them by DeviceLayout's outlet. A module of its own, so that
 * using it does not import the layout: ManagersOnly, on the console's first load, did (issue 68).
 */
export const useCurrentDevice = () => useOutletContext<Device>();
