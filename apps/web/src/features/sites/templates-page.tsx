// /site/template: the company's price templates outside any station (their versions, the editor for those who
// manage stations).
import { Permission } from '@genset/protocol';
import { useAuthorized } from '../../components/use-authorized.ts';
import { TemplatesCard } from './templates-card.tsx';

export function TemplatesPage() {
  const allowed = useAuthorized();
  return <TemplatesCard canManage={allowed([Permission.siteManage])} />;
}
