import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import addNote from './add-note';
import associate from './associate';
import createContact from './create-contact';
import createDeal from './create-deal';
import searchContacts from './search-contacts';
import updateContact from './update-contact';
import upsertContact from './upsert-contact';

/** HubSpot CRM (v3, associations v4), by a private-app token or OAuth. */
export default defineIntegration({
  key: 'hubspot',
  name: 'HubSpot',
  auth: bearerAuth(['oauth2', 'api_key'], {
    tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
    scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.deals.read', 'crm.objects.deals.write'],
  }),
  baseUrl: 'https://api.hubapi.com',
  apiDescription: 'hubspot.json',
  // Stored journeys may omit the action: it was the only one.
  defaultAction: 'create_contact',
  actions: [createContact, upsertContact, updateContact, searchContacts, addNote, createDeal, associate],
});
