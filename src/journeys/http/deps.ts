import type { LatestJourneyVersions } from '../latest-versions';

/** The journey routes read the latest versions through the api's cache (createApp builds it when none is handed in). */
declare module '../../http/deps' {
  interface AppDeps {
    journeyVersions: LatestJourneyVersions;
  }
}
