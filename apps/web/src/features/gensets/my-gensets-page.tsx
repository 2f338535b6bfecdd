// /genset/mylist: the sets the user owns or has subscribed to.
import { GensetList } from './genset-list.tsx';

export function MyGensetsPage() {
  return <GensetList scope="mylist" />;
}
