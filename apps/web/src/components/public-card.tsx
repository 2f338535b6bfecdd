// A white card like antd's Card, without the weight of its tabs and skeleton, for the public pages' forms.
import type { CSSProperties, ReactNode } from 'react';
import './public-frame.css';

export function PublicCard({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  return (
    <section className="public-card" style={style}>
      {children}
    </section>
  );
}
