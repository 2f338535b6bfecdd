// The page's one realtime connection: the address from the company info (or this host's /ws), the user token
// from the session, the language from the settings; pushes go to the store.
import { storedLanguage } from '../i18n/languages.ts';
import { useSession } from '../stores/session.ts';
import { RealtimeConnection, type Watch } from './connection.ts';
import { keepOnly, queuePush, setConnectionState } from './store.ts';

/** The company's realtime address when it has one, else /ws on this host. */
export function socketUrl(configured = useSession.getState().company?.ws ?? '', location = window.location): string {
  if (/^wss?:\/\//i.test(configured)) return configured;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = configured.startsWith('/') ? configured : '/ws';
  return `${scheme}//${location.host}${path}`;
}

let shared: RealtimeConnection | null = null;

export function realtimeConnection(): RealtimeConnection {
  shared ??= new RealtimeConnection({
    url: () => socketUrl(),
    utoken: () => useSession.getState().token,
    language: () => storedLanguage(),
    listener: { state: setConnectionState, push: queuePush },
  });
  return shared;
}

/**
 * Watches on the shared connection; ending it also forgets the data of sets nobody watches any more and the
 * server no longer pushes (it sends a set's whole state, alarms included, only when the set is newly watched).
 */
export function watchSets(watch: Watch): () => void {
  const connection = realtimeConnection();
  const release = connection.watch(watch);
  return () => {
    release();
    keepOnly(new Set([...connection.watchedTokens(), ...connection.toldTokens()]));
  };
}
