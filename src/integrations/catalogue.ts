/** Every integration, one line each (alphabetical, so parallel additions merge cleanly). */
export { default as acuity } from './acuity';
export { default as airtable } from './airtable';
export { default as asana } from './asana';
export { default as calcom } from './calcom';
export { default as calendly } from './calendly';
export { default as clickup } from './clickup';
export { default as google_calendar } from './google_calendar';
export { default as google_sheets } from './google_sheets';
export { default as hubspot } from './hubspot';
export { default as jira } from './jira';
export { default as monday } from './monday';
export { default as notion } from './notion';
export { default as proxy } from './proxy';
export { default as slack } from './slack';
export { default as trello } from './trello';
export { default as zoom } from './zoom';
