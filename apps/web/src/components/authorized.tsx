// Renders its children only for users holding one of the required permissions (or '*:*').
import type { ReactNode } from 'react';
import { useAuthorized } from './use-authorized.ts';

export interface AuthorizedProps {
  require: readonly string[];
  children: ReactNode;
  /** Shown instead when not allowed; nothing by default. */
  fallback?: ReactNode;
}

export function Authorized({ require, children, fallback = null }: AuthorizedProps) {
  const allowed = useAuthorized();
  return <>{allowed(require) ? children : fallback}</>;
}
