import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import sendEmail from './send-email';
import upsertContact from './upsert-contact';

/** SendGrid v3 (Mail Send, Marketing contacts), by an API key; EU regional subusers (`settings.region = eu`) use api.eu.sendgrid.com. */
export default defineIntegration({
  key: 'sendgrid',
  name: 'SendGrid',
  auth: bearerAuth(['api_key']),
  baseUrl: (conn) => (conn.settings.region?.toLowerCase() === 'eu' ? 'https://api.eu.sendgrid.com' : 'https://api.sendgrid.com'),
  apiDescription: 'sendgrid.json',
  actions: [sendEmail, upsertContact],
});
