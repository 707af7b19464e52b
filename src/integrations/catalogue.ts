/** Every integration, one line each (alphabetical, so parallel additions merge cleanly). */
export { default as discord } from './discord';
export { default as gmail } from './gmail';
export { default as google_calendar } from './google_calendar';
export { default as hubspot } from './hubspot';
export { default as mailgun } from './mailgun';
export { default as microsoft_graph } from './microsoft_graph';
export { default as microsoft_teams } from './microsoft_teams';
export { default as postmark } from './postmark';
export { default as proxy } from './proxy';
export { default as sendgrid } from './sendgrid';
export { default as slack } from './slack';
export { default as stripe } from './stripe';
export { default as telegram } from './telegram';
export { default as twilio } from './twilio';
export { default as whatsapp } from './whatsapp';
