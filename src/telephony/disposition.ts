import { TERMINAL_STATUSES, type CallStatus } from './provider';

// SIP 486/600 busy, 480/408 no answer, 503/502 congestion (trunk or carrier overloaded), anything else unavailable.
const SIP_DISPOSITION: Record<number, string> = { 486: 'BUSY', 600: 'BUSY', 480: 'NOANSWER', 408: 'NOANSWER', 502: 'CONGESTION', 503: 'CONGESTION' };

/** Dial-status style disposition of a terminal event (the open set plura-observed.md lists); null before the end. */
export function dispositionOf(status: CallStatus, sipResponseCode?: number): string | null {
  if (!TERMINAL_STATUSES.has(status)) return null;
  if (status === 'completed') return 'Completed';
  if (status === 'busy') return 'BUSY';
  if (status === 'no-answer') return 'NOANSWER';
  if (status === 'canceled') return 'CANCEL';
  return (sipResponseCode !== undefined && SIP_DISPOSITION[sipResponseCode]) || 'CHANUNAVAIL';
}
