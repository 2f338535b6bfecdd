// Whether the person asked their system for less motion (prefers-reduced-motion): the console then draws no
// animations (Ant Design's transitions, the charts' growing series, pulsing status dots), which also spares a
// small machine from redrawing sixty frames a second for them. Read once at start, like the language.
export const reducedMotion: boolean =
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
