import { LOCAL_ORIGINS } from '@tokensvc/config';

/**
 * The gateway's CORS under `npm start`: a browser app on this machine (a dev server on any port of
 * localhost or 127.0.0.1) can call it, so `CORS_ORIGINS=local` unless the developer set
 * CORS_ORIGINS (an empty value turns CORS off). Production keeps no such default: the gateway's
 * CORS is off unless CORS_ORIGINS lists origins.
 */
export function devPlatformCors(env: NodeJS.ProcessEnv): { env: { CORS_ORIGINS: string }; summary: string } {
  const set = env['CORS_ORIGINS'];
  if (set === undefined) {
    return {
      env: { CORS_ORIGINS: LOCAL_ORIGINS },
      summary:
        'CORS: browser apps on local origins (http://localhost:<any port>, http://127.0.0.1:<any port>) may call the gateway ' +
        `(CORS_ORIGINS=${LOCAL_ORIGINS}; set CORS_ORIGINS to change it, empty to turn CORS off)`,
    };
  }
  return {
    env: { CORS_ORIGINS: set },
    summary: set.trim() === '' ? 'CORS: off (CORS_ORIGINS is empty)' : `CORS: the origins of CORS_ORIGINS=${set}`,
  };
}
