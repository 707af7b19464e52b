import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import createCustomer from './create-customer';
import createPaymentLink from './create-payment-link';
import findCustomers from './find-customers';

/** Stripe, by a secret or restricted key (sk_… / rk_…); form-encoded bodies; Idempotency-Key on every create. */
export default defineIntegration({
  key: 'stripe',
  name: 'Stripe',
  auth: bearerAuth(['api_key', 'oauth2']),
  baseUrl: 'https://api.stripe.com',
  apiDescription: 'stripe.json',
  actions: [createCustomer, createPaymentLink, findCustomers],
});
