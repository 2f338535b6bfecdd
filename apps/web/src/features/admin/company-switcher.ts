// The company switcher of the user menu: a person who belongs to several companies picks one; the console then
// sends it in X-Companyid (the server checks the membership) and starts again in that company.
import { COOKIE, writeCookie } from '../../stores/cookies.ts';
import { useSession } from '../../stores/session.ts';

/** Acts for `companyId` from now on and reloads the shell for it. */
export function switchCompany(companyId: number): void {
  const id = String(companyId);
  if (!useSession.getState().embedded) writeCookie(COOKIE.companyId, id);
  useSession.setState({ companyId: id });
  window.location.assign('/index');
}
