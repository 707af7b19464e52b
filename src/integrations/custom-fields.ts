import { ActionInputError } from './define';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function getPath(obj: Json, path: string[]): unknown {
  let at: unknown = obj;
  for (const part of path) at = isObject(at) ? at[part] : undefined;
  return at;
}

function setPath(obj: Json, path: string[], value: unknown): void {
  let at = obj;
  for (const part of path.slice(0, -1)) {
    if (!isObject(at[part])) at[part] = {};
    at = at[part] as Json;
  }
  at[path[path.length - 1]!] = value;
}

/**
 * Resolves `params.customFields` (runs before validation): for each entry `{field, customFieldEnabled: true}` the param
 * named by `field` (a dotted path) holds a key looked up in `callData.fields`, whose value replaces it. A missing key
 * fails naming it. Returns a copy of the params without `customFields`.
 */
export function resolveCustomFields(params: unknown, callData: Record<string, unknown> | undefined): unknown {
  if (!isObject(params) || params.customFields === undefined) return params;
  const { customFields, ...rest } = params;
  const out = structuredClone(rest) as Json;
  if (!Array.isArray(customFields)) {
    throw new ActionInputError('invalid_params', 'params.customFields must be an array of {field, customFieldEnabled}', ['customFields: expected an array']);
  }
  const fields = isObject(callData?.fields) ? (callData!.fields as Json) : {};
  customFields.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.field !== 'string' || entry.field === '') {
      throw new ActionInputError('invalid_params', `params.customFields[${i}] needs a field name`, [`customFields.${i}.field: expected a non-empty string`]);
    }
    if (entry.customFieldEnabled !== true) return;
    const path = entry.field.split('.');
    const key = getPath(out, path);
    if (typeof key !== 'string' || key === '') {
      throw new ActionInputError('invalid_params', `params.${entry.field} must hold the custom field's key`, [
        `${entry.field}: expected the custom field's key`,
      ]);
    }
    if (!Object.prototype.hasOwnProperty.call(fields, key) || fields[key] === undefined) {
      throw new ActionInputError('custom_field_missing', `custom field "${key}" (for params.${entry.field}) is not in callData.fields`, [key]);
    }
    setPath(out, path, fields[key]);
  });
  return out;
}
