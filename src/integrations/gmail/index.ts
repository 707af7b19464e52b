import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import sendEmail from './send-email';

/** Gmail API (v1), by OAuth (scope gmail.send). */
export default defineIntegration({
  key: 'gmail',
  name: 'Gmail',
  auth: bearerAuth(['oauth2'], { tokenUrl: 'https://oauth2.googleapis.com/token', scopes: ['https://www.googleapis.com/auth/gmail.send'] }),
  baseUrl: 'https://gmail.googleapis.com',
  apiDescription: 'gmail.json',
  actions: [sendEmail],
});
