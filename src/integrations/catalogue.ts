/** Every integration, one line each (alphabetical, so parallel additions merge cleanly). */
export { default as activecampaign } from './activecampaign';
export { default as close } from './close';
export { default as freshdesk } from './freshdesk';
export { default as gohighlevel } from './gohighlevel';
export { default as google_calendar } from './google_calendar';
export { default as hubspot } from './hubspot';
export { default as intercom } from './intercom';
export { default as klaviyo } from './klaviyo';
export { default as mailchimp } from './mailchimp';
export { default as pipedrive } from './pipedrive';
export { default as proxy } from './proxy';
export { default as salesforce } from './salesforce';
export { default as slack } from './slack';
export { default as zendesk } from './zendesk';
export { default as zoho_crm } from './zoho_crm';
