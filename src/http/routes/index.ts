import type { Route } from '../route';
import { getMe } from './workspace';

/** Every documented route of the api, in the order the OpenAPI document lists them. */
export const routes: Route<any, any>[] = [getMe];
