import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Authorized as AuthorizedComponent } from './authorized.tsx';

const session = vi.hoisted(() => ({ permissions: [] as string[] }));
vi.mock('../stores/session.ts', () => ({
  useSession: <T,>(select: (state: typeof session) => T) => select(session),
}));

// The web tests share a worker's loaded modules (vitest.config.ts): the component is loaded anew here, so that it
// reads the session mocked above even when an earlier file of this worker loaded the real one.
let Authorized: typeof AuthorizedComponent;
beforeAll(async () => {
  vi.resetModules();
  ({ Authorized } = await import('./authorized.tsx'));
});

function render(permissions: string[], require: string[]): string {
  session.permissions = permissions;
  return renderToStaticMarkup(
    <Authorized require={require} fallback={<i>no</i>}>
      <b>yes</b>
    </Authorized>,
  );
}

describe('Authorized', () => {
  it('shows its children to holders of *:*', () => {
    expect(render(['*:*'], ['genset:report'])).toBe('<b>yes</b>');
  });
  it('shows its children when any required permission is held', () => {
    expect(render(['genset:view', 'genset:report'], ['genset:control', 'genset:report'])).toBe('<b>yes</b>');
  });
  it('removes its children otherwise', () => {
    expect(render(['genset:view'], ['genset:report'])).toBe('<i>no</i>');
    expect(render([], ['genset:view'])).toBe('<i>no</i>');
  });
  it('refuses an empty requirement', () => {
    expect(() => render(['*:*'], [])).toThrow();
  });
});
