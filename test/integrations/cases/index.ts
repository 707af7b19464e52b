import type { IntegrationCases } from '../../helpers/action-cases';
import { activecampaign } from './activecampaign';
import { acuity } from './acuity';
import { airtable } from './airtable';
import { asana } from './asana';
import { calcom } from './calcom';
import { calendly } from './calendly';
import { clickup } from './clickup';
import { close } from './close';
import { discord } from './discord';
import { freshdesk } from './freshdesk';
import { gmail } from './gmail';
import { gohighlevel } from './gohighlevel';
import { google_calendar } from './google-calendar';
import { google_sheets } from './google-sheets';
import { hubspot } from './hubspot';
import { intercom } from './intercom';
import { jira } from './jira';
import { klaviyo } from './klaviyo';
import { mailchimp } from './mailchimp';
import { mailgun } from './mailgun';
import { microsoft_graph } from './microsoft-graph';
import { microsoft_teams } from './microsoft-teams';
import { monday } from './monday';
import { notion } from './notion';
import { pipedrive } from './pipedrive';
import { postmark } from './postmark';
import { proxy } from './proxy';
import { salesforce } from './salesforce';
import { sendgrid } from './sendgrid';
import { slack } from './slack';
import { stripe } from './stripe';
import { telegram } from './telegram';
import { trello } from './trello';
import { twilio } from './twilio';
import { whatsapp } from './whatsapp';
import { zendesk } from './zendesk';
import { zoho_crm } from './zoho-crm';
import { zoom } from './zoom';

/** Every integration's request cases: the one list the endpoint runner, the direct runner and the registry check read. */
export const allCases: IntegrationCases[] = [
  activecampaign,
  acuity,
  airtable,
  asana,
  calcom,
  calendly,
  clickup,
  close,
  discord,
  freshdesk,
  gmail,
  gohighlevel,
  google_calendar,
  google_sheets,
  hubspot,
  intercom,
  jira,
  klaviyo,
  mailchimp,
  mailgun,
  microsoft_graph,
  microsoft_teams,
  monday,
  notion,
  pipedrive,
  postmark,
  proxy,
  salesforce,
  sendgrid,
  slack,
  stripe,
  telegram,
  trello,
  twilio,
  whatsapp,
  zendesk,
  zoho_crm,
  zoom,
];
