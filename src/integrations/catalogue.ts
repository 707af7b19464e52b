/** Every integration, one line each (alphabetical, so parallel additions merge cleanly). */
export { default as google_calendar } from './google_calendar';
export { default as hubspot } from './hubspot';
export { default as proxy } from './proxy';
export { default as slack } from './slack';
