// A tool's `locator` argument as the phone layer's Locator: the same lookups, waits and routes as a spec's.
import { UsageError } from '../core/errors.js';
import type { Locator, Phone } from '../phone/index.js';

/** A locator as the tools take it: exactly one of text, description, id, query, image; `exact` for texts. */
export interface LocatorArg {
  text?: string;
  description?: string;
  id?: string;
  query?: string;
  image?: string;
  exact?: boolean;
}

/**
 * The phone's locator for the argument.
 * @throws UsageError naming the argument when it names none or several kinds, or a kind badly
 */
export function locatorOf(phone: Phone, arg: LocatorArg): Locator {
  const kinds = (['text', 'description', 'id', 'query', 'image'] as const).filter((k) => arg[k] !== undefined);
  if (kinds.length !== 1) throw new UsageError(`invalid argument locator: ${kinds.length ? `it names ${kinds.join(' and ')}` : 'it names nothing to look for'}`, { hint: 'one of text, description, id, query or image, e.g. { "text": "Sign in" }' });
  const exact = arg.exact ?? false;
  try {
    switch (kinds[0]!) {
      case 'text':
        return phone.getByText(arg.text!, { exact });
      case 'description':
        return phone.getByDescription(arg.description!, { exact });
      case 'id':
        return phone.getById(arg.id!);
      case 'query':
        return phone.getByQuery(arg.query!);
      case 'image':
        return phone.getByImage(arg.image!);
    }
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`invalid argument locator.${kinds[0]}: ${error.message}`);
    throw error;
  }
}
