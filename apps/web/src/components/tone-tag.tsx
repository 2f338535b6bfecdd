// A tag in one of a few tones whose text meets WCAG AA contrast on its tint (antd's preset tag colours are
// too light for small text). Always pair the tone with a word.
import type { ReactNode } from 'react';
import { Tag } from 'antd';
import './tone-tag.css';

export type Tone = 'grey' | 'green' | 'blue' | 'orange' | 'red' | 'gold' | 'purple' | 'cyan' | 'magenta';

export function ToneTag({
  tone,
  icon,
  children,
  ...rest
}: {
  tone: Tone;
  icon?: ReactNode;
  children: ReactNode;
  [data: `data-${string}`]: string | undefined;
}) {
  return (
    <Tag className={`tone-tag tone-${tone}`} icon={icon} {...rest}>
      {children}
    </Tag>
  );
}
