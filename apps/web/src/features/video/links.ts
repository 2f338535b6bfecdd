// The stand-alone player of one camera (a public route: it asks visitors to sign in). An embedded console opens
// it with a one-time code of its own (the address never carries a session token).
export function showVideoLink(token: string, cameraId: number, embedCode?: string): string {
  const query = new URLSearchParams({ token, camera: String(cameraId) });
  if (embedCode) {
    query.set('iframe', '1');
    query.set('code', embedCode);
  }
  return `/showvideo?${query.toString()}`;
}
