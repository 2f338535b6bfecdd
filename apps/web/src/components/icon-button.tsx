// A small button that shows only its icon; its label is what screen readers say and what the tooltip shows.
import type { ComponentProps, ReactNode } from 'react';
import { Button } from 'antd';

export function IconButton({
  icon,
  label,
  ...rest
}: { icon: ReactNode; label: string } & Omit<ComponentProps<typeof Button>, 'icon' | 'title' | 'children'>) {
  return <Button size="small" type="text" icon={icon} aria-label={label} title={label} {...rest} />;
}
