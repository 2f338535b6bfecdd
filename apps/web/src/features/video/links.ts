// The stand-alone player of one camera (a public route: it asks visitors to sign in). An embedded console
// hands its token on, as its own pages carry it.
export function showVideoLink(token: string, cameraId: number, embeddedToken?: string): string {
  const query = new URLSearchParams({ token, camera: String(cameraId) });
  if (embeddedToken) {
    query.set('iframe', '1');
    query.set('yuntoken', embeddedToken);
  }
  return `/showvideo?${query.toString()}`;
}
