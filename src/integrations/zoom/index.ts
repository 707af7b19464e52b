import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { addRegistrant } from './add-registrant';
import { createMeeting } from './create-meeting';

/** Zoom API v2: an OAuth access token (user app or Server-to-Server OAuth) as a Bearer token. */
export default defineIntegration({
  key: 'zoom',
  name: 'Zoom',
  auth: bearerAuth(['oauth2'], { tokenUrl: 'https://zoom.us/oauth/token', scopes: ['meeting:write:meeting'] }),
  baseUrl: 'https://api.zoom.us/v2',
  apiDescription: 'zoom.json',
  actions: [createMeeting, addRegistrant],
});
