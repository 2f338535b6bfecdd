// /site/info/:token (spec 2, "site info"): a station's address of old; it opens the station's overview.
import { Navigate, useParams } from 'react-router';
import { EMS_PATHS, SITE_LIST_PATH, stationHref } from './links.ts';

export function SiteInfoPage() {
  const { token } = useParams();
  return <Navigate to={token ? stationHref(EMS_PATHS.overview, token) : SITE_LIST_PATH} replace />;
}
