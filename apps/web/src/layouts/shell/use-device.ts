// Follows the viewport across the 992 px breakpoint (spec 2, 9).
import { useEffect } from 'react';
import { MOBILE_BREAKPOINT, useSettings } from '../../stores/settings.ts';

export function useDevice() {
  const device = useSettings((s) => s.device);
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`);
    const update = () => useSettings.getState().setDevice(query.matches ? 'mobile' : 'desktop');
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return device;
}
