// hls.js ships its light build (no subtitles, alternate audio or DRM, which camera streams never use) without
// types of its own; they are the full build's.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
