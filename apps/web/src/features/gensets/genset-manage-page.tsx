// /genset/list: every set of the company, for users with genset:manage.
import { GensetList } from './genset-list.tsx';

export function GensetManagePage() {
  return <GensetList scope="list" />;
}
