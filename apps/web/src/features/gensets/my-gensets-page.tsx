// /genset/mylist: the sets the user owns or has subscribed to, and those their role hands them by department or by name.
import { GensetList } from './genset-list.tsx';

export function MyGensetsPage() {
  return <GensetList scope="mylist" />;
}
