// The campaign run's messages, shared by the run and the api that sends them (definitions only: the api loads no workflow code).
import { defineSignal } from '@temporalio/workflow';
import { CAMPAIGN_CONTROL_SIGNAL, type CampaignControl } from '../../src/campaigns/types';

/** pause, resume or cancel, as the routes send them. */
export const campaignControlSignal = defineSignal<[CampaignControl]>(CAMPAIGN_CONTROL_SIGNAL);
