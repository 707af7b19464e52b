import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import createContact from './create-contact';

/** HubSpot CRM (v3), by a private-app token or OAuth. */
export default defineIntegration({
  key: 'hubspot',
  name: 'HubSpot',
  auth: bearerAuth(['oauth2', 'api_key'], { tokenUrl: 'https://api.hubapi.com/oauth/v1/token', scopes: ['crm.objects.contacts.write'] }),
  baseUrl: 'https://api.hubapi.com',
  actions: [createContact],
});
