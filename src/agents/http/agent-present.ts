import type { AgentDetailRow } from '../db/agent-admin';
import type { PhoneNumberRow } from '../../workspaces/db/phone-numbers';

/** An agent row as the api shows it. */
export const presentAgent = (a: AgentDetailRow) => ({
  id: a.id,
  name: a.name,
  profile_picture: a.profile_picture,
  transfer_number: a.transfer_number,
  call_window: a.call_window,
  phone_group_id: a.phone_group_id,
  numbers: a.numbers,
  created_at: a.created_at.toISOString(),
});

/** A phone number row as the api shows it. */
export const presentPhoneNumber = (p: PhoneNumberRow) => ({
  id: p.id,
  number: p.phone,
  agent_id: p.agent_id,
  phone_group_id: p.phone_group_id,
  created_at: p.created_at.toISOString(),
});
