// A table that scrolls sideways can be scrolled from the keyboard: its scrolling box takes the focus (tab stop)
// while its content is wider than the box, and gives it up when it fits again.
import { useEffect, useRef } from 'react';

const SCROLLERS = '.ant-table-content, .ant-table-body';

export function useScrollFocus<T extends HTMLElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const mark = () => {
      for (const box of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        if (scrolls && box.tabIndex !== 0) {
          box.tabIndex = 0;
          box.setAttribute('role', 'region');
          box.setAttribute('aria-label', label);
        } else if (!scrolls && box.hasAttribute('tabindex')) {
          box.removeAttribute('tabindex');
          box.removeAttribute('role');
          box.removeAttribute('aria-label');
        }
      }
    };
    mark();
    const resized = new ResizeObserver(mark);
    resized.observe(root);
    const changed = new MutationObserver(mark);
    changed.observe(root, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [label]);
  return ref;
}
